package benchinputs

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/atcore/atcore/cidutil"
	"github.com/atcore/atcore/tid"
)

// gen makes atproto records in JSON form (obj trees) from one seeded source. The shapes follow
// the Bluesky Lexicons (app.bsky.*); every value is made up here.
type gen struct {
	r    *rand.Rand
	now  time.Time
	dids []string // a pool of authors, reused as real feeds reuse them
}

func newGen(seed uint64) *gen {
	g := &gen{
		r:   rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		now: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
	}
	for range 500 {
		g.dids = append(g.dids, g.newDID())
	}
	return g
}

const base32Lower = "abcdefghijklmnopqrstuvwxyz234567"

func (g *gen) newDID() string {
	var b strings.Builder
	b.WriteString("did:plc:")
	for range 24 {
		b.WriteByte(base32Lower[g.r.IntN(32)])
	}
	return b.String()
}

func (g *gen) did() string { return pick(g.r, g.dids) }

func (g *gen) handle() string {
	names := []string{"alice", "bob", "carol", "dmitri", "yuki", "layla", "jose", "min-jun", "olena", "wei"}
	return pick(g.r, names) + fmt.Sprint(g.r.IntN(1000)) + ".bsky.social"
}

// tick moves the clock forward by up to a minute and returns it as an atproto datetime.
func (g *gen) tick() string {
	g.now = g.now.Add(time.Duration(g.r.Int64N(int64(time.Minute))))
	return g.now.Format("2006-01-02T15:04:05.000Z")
}

func (g *gen) rkey() string {
	t, err := tid.FromTime(g.now.Add(-time.Duration(g.r.Int64N(int64(90*24*time.Hour)))), uint(g.r.IntN(1024)))
	if err != nil {
		panic(err) // a time in 2026 is always in range
	}
	return t.String()
}

func (g *gen) randBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.r.Uint32())
	}
	return b
}

// recordCID and blobCID are real CIDv1 values (sha2-256 of random bytes): bafyrei… and bafkrei….
func (g *gen) recordCID() string { return cidutil.SumCBOR(g.randBytes(32)).String() }
func (g *gen) blobCID() string   { return cidutil.SumRaw(g.randBytes(32)).String() }

func (g *gen) atURI(collection string) string {
	return "at://" + g.did() + "/" + collection + "/" + g.rkey()
}

func (g *gen) strongRef(collection string) obj {
	return obj{{"uri", g.atURI(collection)}, {"cid", g.recordCID()}}
}

func (g *gen) blob(mime string, maxSize int) obj {
	return obj{
		{"$type", "blob"},
		{"ref", obj{{"$link", g.blobCID()}}},
		{"mimeType", mime},
		{"size", 1000 + g.r.IntN(maxSize-1000)},
	}
}

// text returns a post-like text: mixed scripts or plain ASCII.
func (g *gen) text(mixed bool, maxGraphemes, maxBytes int) string {
	if mixed {
		return mixedText(g.r, maxGraphemes, maxBytes)
	}
	n := 10 + g.r.IntN(maxGraphemes*2/3)
	return asciiText(g.r, n)
}

// withFacets inserts n facet targets (mentions, links, hashtags) between the words of text and
// returns the new text with its app.bsky.richtext.facet array (UTF-8 byte offsets).
func (g *gen) withFacets(text string, n int) (string, []any) {
	words := strings.Split(text, " ")
	type span struct {
		word    string
		feature obj
	}
	spans := make([]*span, len(words))
	for i, w := range words {
		spans[i] = &span{word: w}
	}
	for range n {
		var s span
		switch g.r.IntN(3) {
		case 0:
			s = span{"@" + g.handle(), obj{{"$type", "app.bsky.richtext.facet#mention"}, {"did", g.did()}}}
		case 1:
			path := fmt.Sprintf("/%s/%d", pick(g.r, []string{"news", "blog", "p", "watch"}), g.r.IntN(1e6))
			s = span{"example.com" + path[:min(len(path), 12)] + "…", obj{{"$type", "app.bsky.richtext.facet#link"}, {"uri", "https://example.com" + path + "?ref=bsky"}}}
		default:
			tag := pick(g.r, scripts[g.r.IntN(len(scripts)-1)]) // a word of any script but emoji
			s = span{"#" + tag, obj{{"$type", "app.bsky.richtext.facet#tag"}, {"tag", tag}}}
		}
		at := g.r.IntN(len(spans) + 1)
		spans = append(spans[:at], append([]*span{&s}, spans[at:]...)...)
	}
	var b strings.Builder
	var facets []any
	for i, s := range spans {
		if i > 0 {
			b.WriteByte(' ')
		}
		start := b.Len()
		b.WriteString(s.word)
		if s.feature != nil {
			facets = append(facets, obj{
				{"index", obj{{"byteStart", start}, {"byteEnd", b.Len()}}},
				{"features", []any{s.feature}},
			})
		}
	}
	return b.String(), facets
}

func (g *gen) images(n int, mixed bool) obj {
	var imgs []any
	for range n {
		alt := asciiText(g.r, 20+g.r.IntN(200))
		if mixed {
			alt = mixedText(g.r, 120, 1200)
		}
		imgs = append(imgs, obj{
			{"image", g.blob("image/jpeg", 1_000_000)},
			{"alt", alt},
			{"aspectRatio", obj{{"width", 300 + g.r.IntN(3700)}, {"height", 300 + g.r.IntN(3700)}}},
		})
	}
	return obj{{"$type", "app.bsky.embed.images"}, {"images", imgs}}
}

// postOpts says what a post carries.
type postOpts struct {
	mixed  bool
	facets int
	reply  bool
	embed  string // "", "images", "external", "record", "recordWithMedia"
	images int
}

func (g *gen) post(o postOpts) obj {
	// Room is left for the facet targets inserted after: the Lexicon allows 300 graphemes, 3000 bytes.
	text := g.text(o.mixed, 300-30*o.facets, 3000-60*o.facets)
	var facets []any
	if o.facets > 0 {
		text, facets = g.withFacets(text, o.facets)
	}
	p := obj{{"$type", "app.bsky.feed.post"}, {"text", text}}
	if facets != nil {
		p = append(p, member{"facets", facets})
	}
	if o.reply {
		p = append(p, member{"reply", obj{{"root", g.strongRef("app.bsky.feed.post")}, {"parent", g.strongRef("app.bsky.feed.post")}}})
	}
	switch o.embed {
	case "images":
		p = append(p, member{"embed", g.images(o.images, o.mixed)})
	case "external":
		ext := obj{
			{"uri", fmt.Sprintf("https://example.org/articles/%d", g.r.IntN(1e7))},
			{"title", g.text(o.mixed, 60, 300)},
			{"description", g.text(o.mixed, 200, 1000)},
		}
		if g.r.IntN(2) == 0 {
			ext = append(ext, member{"thumb", g.blob("image/jpeg", 1_000_000)})
		}
		p = append(p, member{"embed", obj{{"$type", "app.bsky.embed.external"}, {"external", ext}}})
	case "record":
		p = append(p, member{"embed", obj{{"$type", "app.bsky.embed.record"}, {"record", g.strongRef("app.bsky.feed.post")}}})
	case "recordWithMedia":
		p = append(p, member{"embed", obj{
			{"$type", "app.bsky.embed.recordWithMedia"},
			{"record", obj{{"record", g.strongRef("app.bsky.feed.post")}}},
			{"media", g.images(o.images, o.mixed)},
		}})
	}
	if o.mixed {
		p = append(p, member{"langs", []any{"ja", "ru", "ar"}}) // the Lexicon allows three
	} else {
		p = append(p, member{"langs", []any{"en"}})
	}
	return append(p, member{"createdAt", g.tick()})
}

func (g *gen) profile(mixed bool) obj {
	p := obj{
		{"$type", "app.bsky.actor.profile"},
		{"displayName", g.text(mixed, 64, 640)},
		{"description", g.text(mixed, 256, 2560)},
		{"avatar", g.blob("image/jpeg", 1_000_000)},
		{"banner", g.blob("image/jpeg", 1_000_000)},
		{"pinnedPost", g.strongRef("app.bsky.feed.post")},
	}
	return append(p, member{"createdAt", g.tick()})
}

func (g *gen) list(mixed bool) obj {
	desc, facets := g.withFacets(g.text(mixed, 200, 2000), 1+g.r.IntN(3))
	return obj{
		{"$type", "app.bsky.graph.list"},
		{"purpose", pick(g.r, []any{"app.bsky.graph.defs#curatelist", "app.bsky.graph.defs#modlist"})},
		{"name", g.text(mixed, 16, 64)},
		{"description", desc},
		{"descriptionFacets", facets},
		{"avatar", g.blob("image/png", 1_000_000)},
		{"createdAt", g.tick()},
	}
}

// subjectRecord is a like or a repost.
func (g *gen) subjectRecord(typ string) obj {
	return obj{{"$type", typ}, {"subject", g.strongRef("app.bsky.feed.post")}, {"createdAt", g.tick()}}
}

// didRecord is a follow or a block.
func (g *gen) didRecord(typ string) obj {
	return obj{{"$type", typ}, {"subject", g.did()}, {"createdAt", g.tick()}}
}

func (g *gen) listItem() obj {
	return obj{
		{"$type", "app.bsky.graph.listitem"},
		{"subject", g.did()},
		{"list", g.atURI("app.bsky.graph.list")},
		{"createdAt", g.tick()},
	}
}

// anyRecord draws one record of a repository's usual mix: many likes and posts, fewer follows
// and reposts, a few blocks, list items, profiles and lists. A third of the texts mix scripts.
func (g *gen) anyRecord() obj {
	mixed := g.r.IntN(3) == 0
	switch n := g.r.IntN(100); {
	case n < 35:
		o := postOpts{mixed: mixed, reply: g.r.IntN(3) == 0}
		if g.r.IntN(4) == 0 {
			o.facets = 1 + g.r.IntN(4)
		}
		switch e := g.r.IntN(20); {
		case e < 4:
			o.embed, o.images = "images", 1+g.r.IntN(4)
		case e < 6:
			o.embed = "external"
		case e < 8:
			o.embed = "record"
		case e < 9:
			o.embed, o.images = "recordWithMedia", 1+g.r.IntN(4)
		}
		return g.post(o)
	case n < 65:
		return g.subjectRecord("app.bsky.feed.like")
	case n < 77:
		return g.didRecord("app.bsky.graph.follow")
	case n < 87:
		return g.subjectRecord("app.bsky.feed.repost")
	case n < 90:
		return g.didRecord("app.bsky.graph.block")
	case n < 95:
		return g.listItem()
	case n < 98:
		return g.profile(mixed)
	default:
		return g.list(mixed)
	}
}
