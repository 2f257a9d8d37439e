//go:build !purego

#include "textflag.h"

// The vector path of vector.go, with SSSE3: 16 bytes a step, X0 the previous block and X1 the
// current one. The constants live in X8..X14 for the whole call.
//
// The loops start on a 32-byte boundary (PCALIGN): where a change elsewhere in this file had
// moved validLoop, BenchmarkRatio read mixed scripts at 64 KiB 4.70x utf8.Valid instead of 6.06x
// and CJK 4.97x instead of 6.41x (the same code, two runs of each build alternating).

// BYTES16 declares name<> as 16 bytes, each the low byte of word (which repeats it eight times).
#define BYTES16(name, word) \
	DATA name<>+0(SB)/8, word; \
	DATA name<>+8(SB)/8, word; \
	GLOBL name<>(SB), RODATA|NOPTR, $16

BYTES16(nibbleMask, $0x0f0f0f0f0f0f0f0f)
BYTES16(highBits, $0x8080808080808080)

// A byte minus 0x60, saturated, has its high bit set exactly when the byte is E0..FF (a lead of
// three or four bytes); minus 0x70, when it is F0..FF (a lead of four).
BYTES16(thirdSub, $0x6060606060606060)
BYTES16(fourthSub, $0x7070707070707070)

// The stop bytes of a JSON string: '"', '\\', 00..1F.
BYTES16(quotes, $0x2222222222222222)
BYTES16(backslashes, $0x5c5c5c5c5c5c5c5c)
BYTES16(controlMax, $0x1f1f1f1f1f1f1f1f)

#define LOAD_CONSTANTS \
	MOVOU ·vectorHi1(SB), X8; \
	MOVOU ·vectorLo1(SB), X9; \
	MOVOU ·vectorHi2(SB), X10; \
	MOVOU nibbleMask<>(SB), X11; \
	MOVOU highBits<>(SB), X12; \
	MOVOU thirdSub<>(SB), X13; \
	MOVOU fourthSub<>(SB), X14

// CHECK16 leaves in X4 the errors of block X1 after block X0: a nonzero byte where an error ends.
// X2 is b1 (the byte before each byte of X1); the three tables' bits are ANDed; then the bytes two
// and three back give the bit that says each byte must be a continuation, XORed with the
// two-continuations bit. Clobbers X2, X3.
#define CHECK16 \
	MOVOU X1, X2; \
	PALIGNR $15, X0, X2; \
	MOVOU X2, X3; \
	PSRLW $4, X3; \
	PAND X11, X3; \
	MOVOU X8, X4; \
	PSHUFB X3, X4; \
	PAND X11, X2; \
	MOVOU X9, X3; \
	PSHUFB X2, X3; \
	PAND X3, X4; \
	MOVOU X1, X2; \
	PSRLW $4, X2; \
	PAND X11, X2; \
	MOVOU X10, X3; \
	PSHUFB X2, X3; \
	PAND X3, X4; \
	MOVOU X1, X2; \
	PALIGNR $14, X0, X2; \
	PSUBUSB X13, X2; \
	MOVOU X1, X3; \
	PALIGNR $13, X0, X3; \
	PSUBUSB X14, X3; \
	POR X3, X2; \
	PAND X12, X2; \
	PXOR X2, X4

// CMP_NO_ERRORS compares the errors ORed into X7 with none: JNE follows when there are any.
// Clobbers X6, BX.
#define CMP_NO_ERRORS \
	PXOR X6, X6; \
	PCMPEQB X7, X6; \
	PMOVMSKB X6, BX; \
	CMPL BX, $0xffff

// func cpuidECX(leaf uint32) uint32
TEXT ·cpuidECX(SB), NOSPLIT, $0-12
	MOVL leaf+0(FP), AX
	XORL CX, CX
	CPUID
	MOVL CX, ret+8(FP)
	RET

// func jsonTextBlocks(p []byte) (n, res int)
TEXT ·jsonTextBlocks(SB), NOSPLIT, $0-40
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), CX
	SUBQ $16, CX // the last offset a whole block starts at
	XORQ AX, AX
	PXOR X0, X0 // before p: as if ASCII, so that nothing carries in
	PXOR X7, X7 // the errors of the blocks before this one, ORed: looked at once, at the end
	LOAD_CONSTANTS
	MOVOU quotes<>(SB), X15

	PCALIGN $32

textLoop:
	CMPQ AX, CX
	JGT  textRan
	MOVOU (SI)(AX*1), X1
	CHECK16

	// The stop bytes: '"', '\\' and 00..1F (the bytes equal to their minimum with 1F).
	MOVOU X1, X5
	PCMPEQB X15, X5
	MOVOU backslashes<>(SB), X6
	PCMPEQB X1, X6
	POR X6, X5
	MOVOU controlMax<>(SB), X6
	PMINUB X1, X6
	PCMPEQB X1, X6
	POR X6, X5
	PMOVMSKB X5, DX // bit i: byte i is a stop byte
	TESTL DX, DX
	JNZ  textStop
	POR X4, X7
	MOVOU X1, X0
	ADDQ $16, AX
	JMP  textLoop

textStop:
	// Every error of the blocks before counts; of this block, those up to and including the
	// first stop byte (a sequence it cuts short ends there), not those after it, past the text.
	CMP_NO_ERRORS
	JNE  textBad
	PXOR X6, X6
	PCMPEQB X4, X6
	PMOVMSKB X6, BX
	XORL $0xffff, BX // bit i: an error ends at byte i
	MOVL DX, R8      // R8 = the first stop bit times two, minus one
	NEGL R8
	ANDL DX, R8
	LEAL -1(R8)(R8*1), R8
	TESTL R8, BX
	JNZ  textBad
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, n+24(FP)
	MOVQ $1, res+32(FP) // vectorStop
	RET

textRan:
	CMP_NO_ERRORS
	JNE  textBad
	MOVQ AX, n+24(FP)
	MOVQ $0, res+32(FP) // vectorRan
	RET

textBad:
	MOVQ AX, n+24(FP)
	MOVQ $2, res+32(FP) // vectorBad
	RET

// func validBlocks(p []byte) (n, res int)
TEXT ·validBlocks(SB), NOSPLIT, $0-40
	MOVQ p_base+0(FP), SI
	MOVQ p_len+8(FP), CX
	SUBQ $16, CX
	XORQ AX, AX
	PXOR X0, X0
	PXOR X7, X7 // the errors so far, ORed, as in jsonTextBlocks
	LOAD_CONSTANTS

	PCALIGN $32

validLoop:
	CMPQ AX, CX
	JGT  validRan
	MOVOU (SI)(AX*1), X1
	PMOVMSKB X1, DX
	TESTL DX, DX
	JNZ  validFull

	// A block of ASCII: the caller's word loop, which takes ASCII faster, goes on from here,
	// after going over the last character before it again (it may be cut short).
	JMP  validRan

validFull:
	CHECK16
	POR X4, X7
	MOVOU X1, X0
	ADDQ $16, AX
	JMP  validLoop

validRan:
	CMP_NO_ERRORS
	JNE  validBad
	MOVQ AX, n+24(FP)
	MOVQ $0, res+32(FP) // vectorRan
	RET

validBad:
	MOVQ AX, n+24(FP)
	MOVQ $2, res+32(FP) // vectorBad
	RET
