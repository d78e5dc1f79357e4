//go:build amd64 && gc && !purego && !noasm

#include "textflag.h"

// CHECK8 jumps to fail unless the 8 indices in reg are all below the
// limit in Y7 (dictLen-1 broadcast), compared unsigned so negatives fail.
#define CHECK8(reg, tmp, fail) \
	VPMINUD   Y7, reg, tmp \
	VPCMPEQD  reg, tmp, tmp \
	VPMOVMSKB tmp, R8 \
	CMPL      R8, $0xFFFFFFFF \
	JNE       fail

#define SETUP \
	MOVQ dst+0(FP), DI \
	MOVQ dict+8(FP), SI \
	MOVQ dictLen+16(FP), AX \
	MOVQ idx+24(FP), BX \
	MOVQ n+32(FP), CX \
	DECQ AX \
	MOVQ AX, X7 \
	VPBROADCASTD X7, Y7 \
	XORQ DX, DX



#define COPY16(off) \
	MOVL    off(BX)(DX*4), R9 \
	SHLQ    $4, R9 \
	VMOVDQU (SI)(R9*1), X1 \
	VMOVDQU X1, (R10)

// func gather128AVX2(dst *[16]byte, dict *[16]byte, dictLen int, idx *int32, n int) int
TEXT ·gather128AVX2(SB), NOSPLIT, $0-48
	SETUP

g128_loop:
	CMPQ CX, $8
	JB   g128_done
	VMOVDQU (BX)(DX*4), Y0
	CHECK8(Y0, Y4, g128_done)
	MOVQ DX, R10
	SHLQ $4, R10
	ADDQ DI, R10
	COPY16(0)
	ADDQ $16, R10
	COPY16(4)
	ADDQ $16, R10
	COPY16(8)
	ADDQ $16, R10
	COPY16(12)
	ADDQ $16, R10
	COPY16(16)
	ADDQ $16, R10
	COPY16(20)
	ADDQ $16, R10
	COPY16(24)
	ADDQ $16, R10
	COPY16(28)
	ADDQ $8, DX
	SUBQ $8, CX
	JMP  g128_loop

g128_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET

#define SETUP512 \
	MOVQ dst+0(FP), DI \
	MOVQ dict+8(FP), SI \
	MOVQ dictLen+16(FP), AX \
	MOVQ idx+24(FP), BX \
	MOVQ n+32(FP), CX \
	VPBROADCASTD AX, Z7 \
	XORQ DX, DX

// COPY8X2 copies two 8-byte values with one load of their indices.
#define COPY8X2(off) \
	MOVQ off(BX)(DX*4), R9 \
	MOVL R9, R12 \
	SHRQ $32, R9 \
	MOVQ (SI)(R12*8), R11 \
	MOVQ (SI)(R9*8), R13 \
	MOVQ R11, (off*2)(R10) \
	MOVQ R13, (off*2+8)(R10)

// func gather64Scalar(dst *uint64, dict *uint64, dictLen int, idx *int32, n int) int
TEXT ·gather64Scalar(SB), NOSPLIT, $0-48
	SETUP

g64s_loop:
	CMPQ CX, $8
	JB   g64s_done
	VMOVDQU (BX)(DX*4), Y0
	CHECK8(Y0, Y4, g64s_done)
	LEAQ (DI)(DX*8), R10
	COPY8X2(0)
	COPY8X2(8)
	COPY8X2(16)
	COPY8X2(24)
	ADDQ $8, DX
	SUBQ $8, CX
	JMP  g64s_loop

g64s_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET

// COPY4X2 copies two 4-byte values: one 8-byte load of their indices, two
// dictionary loads, one 8-byte store (three memory operations per pair
// instead of six).
#define COPY4X2(off) \
	MOVQ off(BX)(DX*4), R9 \
	MOVL R9, R12 \
	SHRQ $32, R9 \
	MOVL (SI)(R12*4), R11 \
	MOVL (SI)(R9*4), R13 \
	SHLQ $32, R13 \
	ORQ  R13, R11 \
	MOVQ R11, off(R10)

// func gather32Scalar(dst *uint32, dict *uint32, dictLen int, idx *int32, n int) int
TEXT ·gather32Scalar(SB), NOSPLIT, $0-48
	SETUP

g32s_loop:
	CMPQ CX, $8
	JB   g32s_done
	VMOVDQU (BX)(DX*4), Y0
	CHECK8(Y0, Y4, g32s_done)
	LEAQ (DI)(DX*4), R10
	COPY4X2(0)
	COPY4X2(8)
	COPY4X2(16)
	COPY4X2(24)
	ADDQ $8, DX
	SUBQ $8, CX
	JMP  g32s_loop

g32s_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET

// func gather32Perm512(dst *uint32, tab *[32]uint32, dictLen int, idx *int32, n int) int
TEXT ·gather32Perm512(SB), NOSPLIT, $0-48
	SETUP512
	VMOVDQU32 (SI), Z8
	VMOVDQU32 64(SI), Z9

gp32_loop:
	CMPQ CX, $16
	JB   gp32_done
	VMOVDQU32 (BX)(DX*4), Z0
	VPCMPUD   $1, Z7, Z0, K1
	KORTESTW  K1, K1
	JNC       gp32_done
	VPERMI2D  Z9, Z8, Z0
	VMOVDQU32 Z0, (DI)(DX*4)
	ADDQ      $16, DX
	SUBQ      $16, CX
	JMP       gp32_loop

gp32_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET

// func gather64Perm512(dst *uint64, tab *[16]uint64, dictLen int, idx *int32, n int) int
TEXT ·gather64Perm512(SB), NOSPLIT, $0-48
	SETUP512
	VMOVDQU64 (SI), Z8
	VMOVDQU64 64(SI), Z9

gp64_loop:
	CMPQ CX, $16
	JB   gp64_done
	VMOVDQU32 (BX)(DX*4), Z0
	VPCMPUD   $1, Z7, Z0, K1
	KORTESTW  K1, K1
	JNC       gp64_done
	VPMOVZXDQ (BX)(DX*4), Z1
	VPMOVZXDQ 32(BX)(DX*4), Z2
	VPERMI2Q  Z9, Z8, Z1
	VPERMI2Q  Z9, Z8, Z2
	VMOVDQU64 Z1, (DI)(DX*8)
	VMOVDQU64 Z2, 64(DI)(DX*8)
	ADDQ      $16, DX
	SUBQ      $16, CX
	JMP       gp64_loop

gp64_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET


// func gather32PermAVX2(dst *uint32, tab *[32]uint32, dictLen int, idx *int32, n int) int
// looks 8 values up at a time in a dictionary of up to 32 entries held in
// four registers: VPERMD picks from each 8-entry quarter by the index's
// low 3 bits, and blends on bits 3 and 4 choose the quarter.
TEXT ·gather32PermAVX2(SB), NOSPLIT, $0-48
	SETUP
	VMOVDQU (SI), Y8
	VMOVDQU 32(SI), Y9
	VMOVDQU 64(SI), Y10
	VMOVDQU 96(SI), Y11

gpa_loop:
	CMPQ CX, $8
	JB   gpa_done
	VMOVDQU (BX)(DX*4), Y0
	CHECK8(Y0, Y4, gpa_done)
	VPERMD    Y8, Y0, Y1
	VPERMD    Y9, Y0, Y2
	VPSLLD    $28, Y0, Y3
	VBLENDVPS Y3, Y2, Y1, Y1
	VPERMD    Y10, Y0, Y2
	VPERMD    Y11, Y0, Y5
	VBLENDVPS Y3, Y5, Y2, Y2
	VPSLLD    $27, Y0, Y3
	VBLENDVPS Y3, Y2, Y1, Y1
	VMOVDQU   Y1, (DI)(DX*4)
	ADDQ      $8, DX
	SUBQ      $8, CX
	JMP       gpa_loop

gpa_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET

// func gather64PermAVX2(dst *uint64, tab *[32]uint32, dictLen int, idx *int32, n int) int
// looks 8 values up at a time in a dictionary of up to 16 eight-byte
// entries, split into the low halves (Y8, Y9) and high halves (Y10, Y11)
// of the entries: VPERMD picks from each 8-entry register by the index's
// low 3 bits and a blend on bit 3 chooses the register; the halves are
// then interleaved into 8-byte values.
TEXT ·gather64PermAVX2(SB), NOSPLIT, $0-48
	SETUP
	VMOVDQU (SI), Y8
	VMOVDQU 32(SI), Y9
	VMOVDQU 64(SI), Y10
	VMOVDQU 96(SI), Y11

gpa64_loop:
	CMPQ CX, $8
	JB   gpa64_done
	VMOVDQU (BX)(DX*4), Y0
	CHECK8(Y0, Y4, gpa64_done)
	VPSLLD      $28, Y0, Y3
	VPERMD      Y8, Y0, Y1
	VPERMD      Y9, Y0, Y2
	VBLENDVPS   Y3, Y2, Y1, Y1 // low halves
	VPERMD      Y10, Y0, Y2
	VPERMD      Y11, Y0, Y5
	VBLENDVPS   Y3, Y5, Y2, Y2 // high halves
	VPUNPCKLDQ  Y2, Y1, Y5     // values 0, 1 | 4, 5
	VPUNPCKHDQ  Y2, Y1, Y6     // values 2, 3 | 6, 7
	VPERM2I128  $0x20, Y6, Y5, Y1
	VPERM2I128  $0x31, Y6, Y5, Y2
	VMOVDQU     Y1, (DI)(DX*8)
	VMOVDQU     Y2, 32(DI)(DX*8)
	ADDQ        $8, DX
	SUBQ        $8, CX
	JMP         gpa64_loop

gpa64_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET
