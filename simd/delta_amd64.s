//go:build amd64 && gc && !purego && !noasm

#include "textflag.h"

// PSUM32 makes x the inclusive prefix sum of its 8 lanes (plus minDelta in
// Y6 for each) and t the broadcast of its total.
#define PSUM32(x, t) \
	VPADDD     Y6, x, x \
	VPSLLDQ    $4, x, t \
	VPADDD     t, x, x \
	VPSLLDQ    $8, x, t \
	VPADDD     t, x, x \
	VPSHUFD    $0xFF, x, t \
	VPERM2I128 $0x08, t, t, t \
	VPADDD     t, x, x \
	VPSHUFD    $0xFF, x, t \
	VPERM2I128 $0x11, t, t, t

// func deltaInt32AVX2(v *int32, n int, last, minDelta int32) int32
TEXT ·deltaInt32AVX2(SB), NOSPLIT, $0-28
	MOVQ         v+0(FP), SI
	MOVQ         n+8(FP), CX
	MOVL         last+16(FP), AX
	MOVL         minDelta+20(FP), BX
	VMOVD        AX, X7
	VMOVD        BX, X6
	VPBROADCASTD X7, Y7
	VPBROADCASTD X6, Y6
	SHRQ         $3, CX
	CMPQ         CX, $2
	JB           d32_one

d32_two:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y2
	PSUM32(Y0, Y1)
	PSUM32(Y2, Y3)
	VPADDD  Y7, Y0, Y0
	VPADDD  Y1, Y7, Y7
	VPADDD  Y7, Y2, Y2
	VPADDD  Y3, Y7, Y7
	VMOVDQU Y0, (SI)
	VMOVDQU Y2, 32(SI)
	ADDQ    $64, SI
	SUBQ    $2, CX
	CMPQ    CX, $2
	JAE     d32_two

d32_one:
	TESTQ CX, CX
	JZ    d32_done
	VMOVDQU (SI), Y0
	PSUM32(Y0, Y1)
	VPADDD  Y7, Y0, Y0
	VPADDD  Y1, Y7, Y7
	VMOVDQU Y0, (SI)

d32_done:
	VMOVD X7, AX
	MOVL  AX, ret+24(FP)
	VZEROUPPER
	RET

#define PSUM64(x, t) \
	VPADDQ     Y6, x, x \
	VPSLLDQ    $8, x, t \
	VPADDQ     t, x, x \
	VPSHUFD    $0xEE, x, t \
	VPERM2I128 $0x08, t, t, t \
	VPADDQ     t, x, x \
	VPERMQ     $0xFF, x, t

// func deltaInt64AVX2(v *int64, n int, last, minDelta int64) int64
TEXT ·deltaInt64AVX2(SB), NOSPLIT, $0-40
	MOVQ         v+0(FP), SI
	MOVQ         n+8(FP), CX
	MOVQ         last+16(FP), AX
	MOVQ         minDelta+24(FP), BX
	VMOVQ        AX, X7
	VMOVQ        BX, X6
	VPBROADCASTQ X7, Y7
	VPBROADCASTQ X6, Y6
	SHRQ         $2, CX
	CMPQ         CX, $2
	JB           d64_one

d64_two:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y2
	PSUM64(Y0, Y1)
	PSUM64(Y2, Y3)
	VPADDQ  Y7, Y0, Y0
	VPADDQ  Y1, Y7, Y7
	VPADDQ  Y7, Y2, Y2
	VPADDQ  Y3, Y7, Y7
	VMOVDQU Y0, (SI)
	VMOVDQU Y2, 32(SI)
	ADDQ    $64, SI
	SUBQ    $2, CX
	CMPQ    CX, $2
	JAE     d64_two

d64_one:
	TESTQ CX, CX
	JZ    d64_done
	VMOVDQU (SI), Y0
	PSUM64(Y0, Y1)
	VPADDQ  Y7, Y0, Y0
	VPADDQ  Y1, Y7, Y7
	VMOVDQU Y0, (SI)

d64_done:
	VMOVQ X7, AX
	MOVQ  AX, ret+32(FP)
	VZEROUPPER
	RET
