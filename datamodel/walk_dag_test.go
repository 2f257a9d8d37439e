package datamodel

import (
	"testing"
	"time"

	"github.com/atcore/atcore/cidutil"
)

// TestWalkSharedDAG: a tree that shares one map under two keys at every level has no cycle but
// 2^depth paths. Blobs and Links must finish (within their value budget), not follow them all.
func TestWalkSharedDAG(t *testing.T) {
	blob := map[string]any{"$type": "blob", "ref": Link(cidutil.SumCBOR([]byte{0xa0})), "mimeType": "image/png", "size": int64(1)}
	m := map[string]any{"b": blob}
	for range 200 {
		m = map[string]any{"a": m, "b": m}
	}
	for name, walk := range map[string]func(any) int{
		"Blobs": func(v any) int { return len(Blobs(v)) },
		"Links": func(v any) int { return len(Links(v)) },
	} {
		start := time.Now()
		n := walk(m)
		if n == 0 {
			t.Errorf("%s found nothing before its budget ran out", name)
		}
		if n > walkMaxValues {
			t.Errorf("%s returned %d values, more than the budget of %d visits", name, n, walkMaxValues)
		}
		t.Logf("%s: %d found in %v", name, n, time.Since(start))
	}
}
