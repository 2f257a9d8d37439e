//go:build !purego

package utf8v

// useVector is set when the CPU has SSSE3 (PSHUFB and PALIGNR), as every amd64 CPU made since
// about 2011 does: CPUID leaf 1, ECX bit 9. A variable, so that the tests can run the scalar
// path on the same machine and compare.
var useVector = cpuidECX(1)&(1<<9) != 0

// cpuidECX returns ECX of CPUID for leaf (subleaf 0).
func cpuidECX(leaf uint32) uint32

// jsonTextBlocks checks p in whole 16-byte blocks, as JSONText would, up to the block that holds
// the first stop byte or the last whole block; it returns vectorStop and the stop byte's offset,
// vectorRan and how far it checked, or vectorBad (n is then meaningless: the blocks' errors are
// ORed together and looked at once, at the end). See vector.go.
//
//go:noescape
func jsonTextBlocks(p []byte) (n, res int)

// validBlocks checks p in whole 16-byte blocks, up to the first block of ASCII or the last whole
// block; it returns vectorBad, or vectorRan and how far it checked (the last character may be
// cut short there: see lastCharStart). The caller passes p[0] >= 0x80, so that the first block
// is not ASCII and n is at least 16: valid's loop always moves on.
//
//go:noescape
func validBlocks(p []byte) (n, res int)

// jsonTextVector is jsonTextBlocks where the vector unit is there and p holds a whole block.
func jsonTextVector(p []byte) (n, res int) {
	if !useVector || len(p) < 16 {
		return 0, vectorNone
	}
	return jsonTextBlocks(p)
}

// validVector is validBlocks where the vector unit is there and p holds a whole block.
func validVector(p []byte) (n, res int) {
	if !useVector || len(p) < 16 {
		return 0, vectorNone
	}
	return validBlocks(p)
}
