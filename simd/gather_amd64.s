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

// func gather32AVX2(dst *uint32, dict *uint32, dictLen int, idx *int32, n int) int
TEXT ·gather32AVX2(SB), NOSPLIT, $0-48
	SETUP

g32_loop16:
	CMPQ CX, $16
	JB   g32_loop8
	VMOVDQU (BX)(DX*4), Y0
	VMOVDQU 32(BX)(DX*4), Y1
	CHECK8(Y0, Y4, g32_done)
	CHECK8(Y1, Y4, g32_done)
	VPCMPEQD   Y2, Y2, Y2
	VPCMPEQD   Y3, Y3, Y3
	VPGATHERDD Y2, (SI)(Y0*4), Y5
	VPGATHERDD Y3, (SI)(Y1*4), Y6
	VMOVDQU    Y5, (DI)(DX*4)
	VMOVDQU    Y6, 32(DI)(DX*4)
	ADDQ       $16, DX
	SUBQ       $16, CX
	JMP        g32_loop16

g32_loop8:
	CMPQ CX, $8
	JB   g32_done
	VMOVDQU (BX)(DX*4), Y0
	CHECK8(Y0, Y4, g32_done)
	VPCMPEQD   Y2, Y2, Y2
	VPGATHERDD Y2, (SI)(Y0*4), Y5
	VMOVDQU    Y5, (DI)(DX*4)
	ADDQ       $8, DX
	SUBQ       $8, CX
	JMP        g32_loop8

g32_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET

// func gather64AVX2(dst *uint64, dict *uint64, dictLen int, idx *int32, n int) int
TEXT ·gather64AVX2(SB), NOSPLIT, $0-48
	SETUP

g64_loop:
	CMPQ CX, $8
	JB   g64_done
	VMOVDQU (BX)(DX*4), Y0
	CHECK8(Y0, Y4, g64_done)
	VEXTRACTI128 $1, Y0, X1
	VPCMPEQD     Y2, Y2, Y2
	VPCMPEQD     Y3, Y3, Y3
	VPGATHERDQ   Y2, (SI)(X0*8), Y5
	VPGATHERDQ   Y3, (SI)(X1*8), Y6
	VMOVDQU      Y5, (DI)(DX*8)
	VMOVDQU      Y6, 32(DI)(DX*8)
	ADDQ         $8, DX
	SUBQ         $8, CX
	JMP          g64_loop

g64_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET

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

// func gather32AVX512(dst *uint32, dict *uint32, dictLen int, idx *int32, n int) int
TEXT ·gather32AVX512(SB), NOSPLIT, $0-48
	SETUP512

g32z_loop32:
	CMPQ CX, $32
	JB   g32z_loop16
	VMOVDQU32  (BX)(DX*4), Z0
	VMOVDQU32  64(BX)(DX*4), Z3
	VPCMPUD    $1, Z7, Z0, K1
	VPCMPUD    $1, Z7, Z3, K2
	KANDW      K1, K2, K3
	KORTESTW   K3, K3
	JNC        g32z_loop16
	VPGATHERDD (SI)(Z0*4), K1, Z1
	VPGATHERDD (SI)(Z3*4), K2, Z4
	VMOVDQU32  Z1, (DI)(DX*4)
	VMOVDQU32  Z4, 64(DI)(DX*4)
	ADDQ       $32, DX
	SUBQ       $32, CX
	JMP        g32z_loop32

g32z_loop16:
	CMPQ CX, $16
	JB   g32z_done
	VMOVDQU32  (BX)(DX*4), Z0
	VPCMPUD    $1, Z7, Z0, K1
	KORTESTW   K1, K1
	JNC        g32z_done
	VPGATHERDD (SI)(Z0*4), K1, Z1
	VMOVDQU32  Z1, (DI)(DX*4)
	ADDQ       $16, DX
	SUBQ       $16, CX
	JMP        g32z_loop16

g32z_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET

// func gather64AVX512(dst *uint64, dict *uint64, dictLen int, idx *int32, n int) int
TEXT ·gather64AVX512(SB), NOSPLIT, $0-48
	SETUP512

g64z_loop:
	CMPQ CX, $16
	JB   g64z_done
	VMOVDQU32     (BX)(DX*4), Z0
	VPCMPUD       $1, Z7, Z0, K1
	KORTESTW      K1, K1
	JNC           g64z_done
	VEXTRACTI32X8 $1, Z0, Y2
	KSHIFTRW      $8, K1, K2
	VPGATHERDQ    (SI)(Y0*8), K1, Z1
	VPGATHERDQ    (SI)(Y2*8), K2, Z3
	VMOVDQU64     Z1, (DI)(DX*8)
	VMOVDQU64     Z3, 64(DI)(DX*8)
	ADDQ          $16, DX
	SUBQ          $16, CX
	JMP           g64z_loop

g64z_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET

#define COPY8(off) \
	MOVL off(BX)(DX*4), R9 \
	MOVQ (SI)(R9*8), R11 \
	MOVQ R11, (off*2)(R10)

// func gather64Scalar(dst *uint64, dict *uint64, dictLen int, idx *int32, n int) int
TEXT ·gather64Scalar(SB), NOSPLIT, $0-48
	SETUP

g64s_loop:
	CMPQ CX, $8
	JB   g64s_done
	VMOVDQU (BX)(DX*4), Y0
	CHECK8(Y0, Y4, g64s_done)
	LEAQ (DI)(DX*8), R10
	COPY8(0)
	COPY8(4)
	COPY8(8)
	COPY8(12)
	COPY8(16)
	COPY8(20)
	COPY8(24)
	COPY8(28)
	ADDQ $8, DX
	SUBQ $8, CX
	JMP  g64s_loop

g64s_done:
	MOVQ DX, ret+40(FP)
	VZEROUPPER
	RET
