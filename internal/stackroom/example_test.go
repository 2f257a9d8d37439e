package stackroom_test

import (
	"fmt"

	"github.com/atcore/atcore/internal/stackroom"
)

// node is a tree as deep as a decoder may meet.
type node struct{ child *node }

// depthOf walks n recursively; once it is 8 levels down, it makes room for 24 more levels of
// its own frame (about 64 bytes) in one step, instead of letting the stack grow level by level.
func depthOf(n *node, depth int) int {
	if depth == 8 {
		stackroom.Reserve(24 * 64)
	}
	if n.child == nil {
		return depth
	}
	return depthOf(n.child, depth+1)
}

func Example() {
	root := &node{}
	for n, i := root, 1; i < 32; i++ {
		n.child = &node{}
		n = n.child
	}
	fmt.Println(depthOf(root, 1))
	// Output: 32
}
