package did

import (
	"fmt"
	"strings"

	"github.com/atcore/atcore/handle"
	"github.com/atcore/atcore/internal/echo"
)

// plcLen is the length of a did:plc identifier: 24 characters of base32 (a-z, 2-7), the first
// 120 bits of the hash of the DID's genesis operation (https://web.plc.directory/spec/v0.1/did-plc).
const plcLen = 24

// IsPLC reports whether d is a did:plc in its exact form: "did:plc:" and 24 characters of
// lower-case base32 (a-z, 2-7).
func (d DID) IsPLC() bool {
	return len(d.s) == plcFullLen && d.s[:8] == "did:plc:" && isBase32Lower(d.s[8:])
}

// CheckPLC returns nil if d is a did:plc in its exact form (see IsPLC), and otherwise an *Error
// that says why, matching ErrMethod (another method) or ErrPLC. A DID of any method is valid
// DID syntax; this is the check for services that accept only did:plc, or that must tell a
// did:plc apart before resolving it at a PLC directory.
func (d DID) CheckPLC() error {
	if d.IsPLC() {
		return nil
	}
	if !d.IsValid() {
		return newError(d.s, -1, ErrInvalid, "not a DID")
	}
	if m := d.Method(); m != "plc" {
		return newError(d.s, 4, ErrMethod, fmt.Sprintf("method %s is not plc", echo.Quote(m)))
	}
	id := d.Identifier()
	if len(id) != plcLen {
		return newError(d.s, -1, ErrPLC, fmt.Sprintf("a did:plc identifier has %d characters; this has %d", plcLen, len(id)))
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || '2' <= c && c <= '7') {
			off := 8 + i
			return newError(d.s, off, ErrPLC, fmt.Sprintf("%s at offset %d is not a did:plc character (a-z, 2-7)", echo.QuoteAt(d.s, off), off))
		}
	}
	return newError(d.s, -1, ErrPLC, "rejected") // unreachable
}

// WebHost returns the host name of a did:web, as an HTTPS request for its DID document would use
// it: "example.com" for did:web:example.com, "localhost:8080" for did:web:localhost%3A8080.
//
// atproto supports only host-level did:web (https://atproto.com/specs/did): no path (a ':' in
// the identifier), a host with the syntax of a handle and none of the top-level domains handles
// may not have (see handle.HasDisallowedTLD), and a port (its ':' encoded as %3A) only on
// localhost. The spec allows localhost and ports only in testing and development: a production
// service should refuse a host of "localhost". The error is an *Error matching ErrMethod (not a
// did:web) or ErrWeb. WebHost allocates only to decode a port.
func (d DID) WebHost() (string, error) {
	if !d.IsValid() {
		return "", newError(d.s, -1, ErrInvalid, "not a DID")
	}
	if m := d.Method(); m != "web" {
		return "", newError(d.s, 4, ErrMethod, fmt.Sprintf("method %s is not web", echo.Quote(m)))
	}
	const base = len("did:web:")
	host := d.Identifier()
	if i := strings.IndexByte(host, ':'); i >= 0 {
		return "", newError(d.s, base+i, ErrWeb, fmt.Sprintf("':' at offset %d: path-based did:web is not supported in atproto", base+i))
	}
	port := ""
	if i := strings.IndexByte(host, '%'); i >= 0 {
		if !strings.HasPrefix(host[i:], "%3A") && !strings.HasPrefix(host[i:], "%3a") {
			return "", newError(d.s, base+i, ErrWeb, fmt.Sprintf("'%%' at offset %d: only %%3A (the colon before a port) may be encoded in a did:web host", base+i))
		}
		host, port = host[:i], host[i+3:]
		if !strings.EqualFold(host, "localhost") {
			return "", newError(d.s, base+i, ErrWeb, fmt.Sprintf("port at offset %d: only localhost may have a port", base+i))
		}
		if p := parsePort(port); p == 0 {
			return "", newError(d.s, base+i+3, ErrWeb, fmt.Sprintf("port %s at offset %d is not a number from 1 to 65535", echo.Quote(port), base+i+3))
		}
		return host + ":" + port, nil
	}
	if strings.EqualFold(host, "localhost") {
		return host, nil
	}
	if err := handle.ValidateAt(host, base); err != nil {
		he := err.(*handle.Error)
		return "", newError(d.s, he.Offset, ErrWeb, "host: "+strings.Replace(he.Reason, "a handle", "a host name", 1))
	}
	if h := handle.MustParse(host); h.HasDisallowedTLD() {
		off := base + len(host) - len(h.TLD())
		return "", newError(d.s, off, ErrWeb, fmt.Sprintf("top-level domain %q at offset %d is not allowed in atproto", h.TLD(), off))
	}
	return host, nil
}

// parsePort returns the value of a decimal port from 1 to 65535 without sign or leading zero,
// or 0.
func parsePort(s string) int {
	if len(s) == 0 || len(s) > 5 || s[0] == '0' {
		return 0
	}
	p := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0
		}
		p = p*10 + int(c-'0')
	}
	if p > 65535 {
		return 0
	}
	return p
}
