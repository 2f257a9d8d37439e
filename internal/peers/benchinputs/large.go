package benchinputs

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/atcore/atcore/datamodel"
)

// bundle returns a com.example.atcore.bench.bundle record of at least target bytes of DAG-CBOR
// (and under the 1 MiB limit for the targets used): records of the stream's mix, every tenth entry
// a map of raw bytes, a link and numbers, so that every data model kind is in it.
func (g *gen) bundle(target int) (obj, error) {
	var items []any
	size := 64 // the envelope: $type, createdAt, the array header
	for size < target {
		var item obj
		if len(items)%10 == 9 {
			item = obj{
				{"digest", obj{{"$bytes", base64.RawStdEncoding.EncodeToString(g.randBytes(16 + g.r.IntN(240)))}}},
				{"ref", obj{{"$link", g.recordCID()}}},
				{"seq", g.r.Int64N(1 << 53)},
				{"neg", -g.r.Int64N(1 << 20)},
				{"ok", g.r.IntN(2) == 0},
				{"none", nil},
			}
		} else {
			item = g.anyRecord()
		}
		n, err := cborLen(item)
		if err != nil {
			return nil, err
		}
		items = append(items, item)
		size += n
	}
	return obj{
		{"$type", "com.example.atcore.bench.bundle"},
		{"items", items},
		{"createdAt", g.tick()},
	}, nil
}

// wideMap returns a com.example.atcore.bench.widemap record whose "counts" map has n distinct
// keys, written in random order (DAG-CBOR sorts them; a JSON decoder meets them unsorted).
func (g *gen) wideMap(n int) obj {
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789-_."
	seen := make(map[string]bool, n)
	counts := make(obj, 0, n)
	for len(counts) < n {
		var b strings.Builder
		for range 1 + g.r.IntN(16) {
			b.WriteByte(alnum[g.r.IntN(len(alnum))])
		}
		if g.r.IntN(10) == 0 {
			b.WriteString(pick(g.r, scripts[g.r.IntN(len(scripts))]))
		}
		k := b.String()
		if len(k) > 24 || seen[k] {
			continue
		}
		seen[k] = true
		var v any
		switch x := g.r.IntN(20); {
		case x < 12:
			v = g.r.Int64N(1 << (1 + g.r.IntN(40)))
		case x < 16:
			v = asciiText(g.r, 1+g.r.IntN(12))
		case x < 18:
			v = g.r.IntN(2) == 0
		case x < 19:
			v = nil
		default:
			v = obj{{"n", g.r.IntN(1000)}}
		}
		counts = append(counts, member{k, v})
	}
	return obj{
		{"$type", "com.example.atcore.bench.widemap"},
		{"counts", counts},
		{"createdAt", g.tick()},
	}
}

func cborLen(v obj) (int, error) {
	js, err := marshal(v)
	if err != nil {
		return 0, err
	}
	c, err := datamodel.JSONToCBOR(js)
	if err != nil {
		return 0, fmt.Errorf("benchinputs: %w", err)
	}
	return len(c), nil
}
