package lexicon

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Catalog is a set of Lexicon schemas with every reference resolved: a reference to a
// definition the catalog does not hold, or to one that cannot be referenced there, is an error
// when the catalog is built, not when a record is validated.
//
// A Catalog is immutable once built and safe for concurrent use by any number of goroutines.
type Catalog struct {
	schemas map[string]*Schema // by NSID
	defs    map[string]*node   // by full name: "nsid#name", "nsid" for main
}

// NewCatalog builds a catalog of the given documents and resolves their references. Every
// problem found is returned, as Errors of *Error matching ErrSchema; a nil *Schema is one.
//
// The catalog keeps copies of the documents, resolved against each other: one Schema may be
// part of several catalogs, each with its own versions of the documents it refers to, and a
// catalog that fails to build changes none that were built.
func NewCatalog(schemas ...*Schema) (*Catalog, error) {
	c := &Catalog{schemas: make(map[string]*Schema, len(schemas)), defs: make(map[string]*node)}
	var errs Errors
	folded := make(map[string]*Schema, len(schemas)) // by the ID in lower case
	for i, s := range schemas {
		if s == nil {
			errs = append(errs, &Error{Err: ErrSchema, Detail: fmt.Sprintf(
				"argument %d of NewCatalog is a nil *Schema (ParseSchema returns nil with its error)", i+1)})
			continue
		}
		if prev, ok := c.schemas[s.ID]; ok {
			errs = append(errs, &Error{Err: ErrSchema, File: s.File, Path: "/id", Rule: "id",
				Detail: fmt.Sprintf("%s is also defined by %q", s.ID, prev.File)})
			continue
		}
		// "Having multiple NSIDs that differ only by casing is not allowed"
		// (https://atproto.com/specs/nsid): two schemas so named would make two types of what
		// readers may take for one.
		if prev, ok := folded[strings.ToLower(s.ID)]; ok {
			errs = append(errs, &Error{Err: ErrSchema, File: s.File, Path: "/id", Rule: "id",
				Detail: fmt.Sprintf("%s differs only by letter case from %s, defined by %q", s.ID, prev.ID, prev.File)})
			continue
		}
		folded[strings.ToLower(s.ID)] = s
		s = s.clone()
		c.schemas[s.ID] = s
		for _, n := range s.defs {
			c.defs[n.name] = n
		}
	}
	ids := c.Schemas()
	for _, id := range ids {
		s := c.schemas[id]
		for _, name := range s.Defs() {
			errs = c.resolve(s.defs[name], errs)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return c, nil
}

// LoadFS reads every *.json file under dir in fsys (recursively) as a Lexicon document and
// builds a catalog of them: for schemas embedded in a service with embed.FS. Every refused
// document and dangling reference is reported, as Errors; a file's name in an error is its path
// in fsys.
func LoadFS(fsys fs.FS, dir string) (*Catalog, error) {
	schemas, err := ParseFS(fsys, dir)
	var errs Errors
	if err != nil && !errors.As(err, &errs) {
		return nil, err
	}
	c, err := NewCatalog(schemas...)
	if err != nil {
		var more Errors
		errors.As(err, &more)
		errs = append(errs, more...)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return c, nil
}

// ParseFS parses every *.json file under dir in fsys (recursively; regular files and symlinks to
// them) as a Lexicon document, without building a catalog: to combine documents from several
// places in one NewCatalog. The documents that parse are returned with Errors listing those that
// do not.
func ParseFS(fsys fs.FS, dir string) ([]*Schema, error) {
	var schemas []*Schema
	var errs Errors
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || path.Ext(p) != ".json" {
			return nil
		}
		if !d.Type().IsRegular() {
			// A symlink is followed to what it names; anything else that is not a regular
			// file (a named pipe, a device, a socket, a directory named *.json) is left
			// out: reading a named pipe would wait for a writer, for ever.
			info, err := fs.Stat(fsys, p)
			if err != nil {
				return err
			}
			if !info.Mode().IsRegular() {
				return nil
			}
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		s, err := ParseSchema(p, data)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				errs = append(errs, e)
				return nil
			}
			return err
		}
		schemas = append(schemas, s)
		return nil
	})
	if err != nil {
		return schemas, err
	}
	if len(errs) > 0 {
		return schemas, errs
	}
	return schemas, nil
}

// LoadDir is LoadFS of the directory dir on disk; files are named in errors by their path
// on disk (dir joined with their path under it).
func LoadDir(dir string) (*Catalog, error) {
	schemas, err := ParseFS(os.DirFS(dir), ".")
	var errs Errors
	if err != nil && !errors.As(err, &errs) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = filepath.Join(dir, filepath.FromSlash(pe.Path)) // "stat .": which one?
		}
		return nil, err
	}
	for _, e := range errs {
		e.File = filepath.Join(dir, filepath.FromSlash(e.File))
	}
	for _, s := range schemas {
		s.File = filepath.Join(dir, filepath.FromSlash(s.File))
		for _, n := range s.defs {
			n.setFile(s.File)
		}
	}
	c, err := NewCatalog(schemas...)
	if err != nil {
		var more Errors
		errors.As(err, &more)
		errs = append(errs, more...)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return c, nil
}

// Schemas returns the NSIDs of the catalog's documents, sorted.
func (c *Catalog) Schemas() []string {
	ids := make([]string, 0, len(c.schemas))
	for id := range c.schemas {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Schema returns the document of the NSID id, or nil.
func (c *Catalog) Schema(id string) *Schema { return c.schemas[id] }

// Type returns the Lexicon type of the definition ref ("nsid", "nsid#name"), or "" if the
// catalog does not hold it.
func (c *Catalog) Type(ref string) string {
	if n := c.lookup(ref); n != nil {
		return n.kind.String()
	}
	return ""
}

// lookup finds a definition by full name, accepting "nsid#main" for "nsid".
func (c *Catalog) lookup(ref string) *node {
	if n, ok := c.defs[ref]; ok {
		return n
	}
	if base, ok := strings.CutSuffix(ref, "#main"); ok {
		return c.defs[base]
	}
	return nil
}

// resolve points every ref and union under n at its definition
// (https://atproto.com/specs/lexicon#ref, #union): a ref may not point at a token or a primary
// type other than record; a union's variants are objects or records.
func (c *Catalog) resolve(n *node, errs Errors) Errors {
	if n == nil {
		return errs
	}
	fail := func(ptr, rule, format string, args ...any) {
		errs = append(errs, &Error{Err: ErrSchema, File: n.file, Path: ptr, Rule: rule, Detail: fmt.Sprintf(format, args...)})
	}
	switch n.kind {
	case kRef:
		t := c.defs[n.ref]
		switch {
		case t == nil:
			fail(n.ptr, "ref", "%s: no such definition in the catalog", n.ref)
		case t.kind == kToken || (t.kind.primary() && t.kind != kRecord):
			fail(n.ptr, "ref", "%s is a %s, which a ref cannot point to", n.ref, t.kind)
		default:
			n.target = t
		}
	case kUnion:
		n.targets = make([]*node, len(n.refs))
		for i, r := range n.refs {
			t := c.defs[r]
			ptr := fmt.Sprintf("%s/%d", n.ptr, i)
			switch {
			case t == nil:
				fail(ptr, "refs", "%s: no such definition in the catalog", r)
			case t.kind != kObject && t.kind != kRecord:
				fail(ptr, "refs", "%s is a %s; union variants are objects or records", r, t.kind)
			default:
				n.targets[i] = t
			}
		}
	case kArray:
		errs = c.resolve(n.items, errs)
	case kObject, kParams:
		for _, p := range n.props {
			errs = c.resolve(p.node, errs)
		}
	case kRecord:
		errs = c.resolve(n.record, errs)
	case kQuery, kProcedure, kSubscription:
		errs = c.resolve(n.params, errs)
		errs = c.resolve(n.message, errs)
		for _, b := range []*body{n.input, n.output} {
			if b != nil {
				errs = c.resolve(b.schema, errs)
			}
		}
	}
	return errs
}

// clone returns a copy of s whose definitions resolve will point at the catalog's own copies:
// resolving writes into the nodes (target, targets), which must not be shared with the
// catalogs built from s before. What parsing made and nothing changes afterwards (formats,
// enums, the property index) is shared.
func (s *Schema) clone() *Schema {
	c := *s
	c.defs = make(map[string]*node, len(s.defs))
	for name, n := range s.defs {
		c.defs[name] = n.clone()
	}
	return &c
}

// clone copies n and the nodes under it, without the results of resolve.
func (n *node) clone() *node {
	if n == nil {
		return nil
	}
	c := *n
	c.target, c.targets = nil, nil
	c.items = n.items.clone()
	if n.props != nil {
		c.props = make([]prop, len(n.props))
		for i, p := range n.props {
			p.node = p.node.clone()
			c.props[i] = p
		}
	}
	c.record = n.record.clone()
	c.params = n.params.clone()
	c.message = n.message.clone()
	c.input, c.output = n.input.clone(), n.output.clone()
	return &c
}

func (b *body) clone() *body {
	if b == nil {
		return nil
	}
	c := *b
	c.schema = b.schema.clone()
	return &c
}

// setFile renames the document that n and the definitions inside it were read from, for the
// errors that resolution reports.
func (n *node) setFile(file string) {
	if n == nil {
		return
	}
	if n.file != "" {
		n.file = file
	}
	n.items.setFile(file)
	for _, p := range n.props {
		p.node.setFile(file)
	}
	n.record.setFile(file)
	n.params.setFile(file)
	n.message.setFile(file)
	for _, b := range []*body{n.input, n.output} {
		if b != nil {
			b.schema.setFile(file)
		}
	}
}
