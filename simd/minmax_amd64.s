//go:build amd64 && gc && !purego && !noasm

#include "textflag.h"

// func minmaxInt32AVX2(v *int32, n int) (lo, hi int32)
TEXT ·minmaxInt32AVX2(SB), NOSPLIT, $0-24
	MOVQ    v+0(FP), SI
	MOVQ    n+8(FP), CX
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQA Y0, Y2
	VMOVDQA Y1, Y3
	ADDQ    $64, SI
	SUBQ    $16, CX
	JZ      mm32_reduce

mm32_loop:
	VMOVDQU (SI), Y4
	VMOVDQU 32(SI), Y5
	VPMINSD Y4, Y0, Y0
	VPMINSD Y5, Y1, Y1
	VPMAXSD Y4, Y2, Y2
	VPMAXSD Y5, Y3, Y3
	ADDQ    $64, SI
	SUBQ    $16, CX
	JNZ     mm32_loop

mm32_reduce:
	VPMINSD      Y1, Y0, Y0
	VPMAXSD      Y3, Y2, Y2
	VEXTRACTI128 $1, Y0, X1
	VEXTRACTI128 $1, Y2, X3
	VPMINSD      X1, X0, X0
	VPMAXSD      X3, X2, X2
	VPSHUFD      $0x4E, X0, X1
	VPSHUFD      $0x4E, X2, X3
	VPMINSD      X1, X0, X0
	VPMAXSD      X3, X2, X2
	VPSHUFD      $0xB1, X0, X1
	VPSHUFD      $0xB1, X2, X3
	VPMINSD      X1, X0, X0
	VPMAXSD      X3, X2, X2
	VMOVD        X0, AX
	VMOVD        X2, BX
	MOVL         AX, lo+16(FP)
	MOVL         BX, hi+20(FP)
	VZEROUPPER
	RET

// MIN64/MAX64 fold x into acc with a signed compare and a blend.
#define MIN64(x, acc, t) \
	VPCMPGTQ  x, acc, t \
	VPBLENDVB t, x, acc, acc

#define MAX64(x, acc, t) \
	VPCMPGTQ  acc, x, t \
	VPBLENDVB t, x, acc, acc

// func minmaxInt64AVX2(v *int64, n int) (lo, hi int64)
TEXT ·minmaxInt64AVX2(SB), NOSPLIT, $0-32
	MOVQ    v+0(FP), SI
	MOVQ    n+8(FP), CX
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQA Y0, Y2
	VMOVDQA Y1, Y3
	ADDQ    $64, SI
	SUBQ    $8, CX

mm64_loop:
	VMOVDQU (SI), Y4
	VMOVDQU 32(SI), Y5
	MIN64(Y4, Y0, Y6)
	MIN64(Y5, Y1, Y7)
	MAX64(Y4, Y2, Y8)
	MAX64(Y5, Y3, Y9)
	ADDQ $64, SI
	SUBQ $8, CX
	JNZ  mm64_loop

	MIN64(Y1, Y0, Y6)
	MAX64(Y3, Y2, Y8)
	VEXTRACTI128 $1, Y0, X1
	VEXTRACTI128 $1, Y2, X3
	MIN64(Y1, Y0, Y6)
	MAX64(Y3, Y2, Y8)
	VPSHUFD $0x4E, X0, X1
	VPSHUFD $0x4E, X2, X3
	MIN64(Y1, Y0, Y6)
	MAX64(Y3, Y2, Y8)
	VMOVQ X0, AX
	VMOVQ X2, BX
	MOVQ  AX, lo+16(FP)
	MOVQ  BX, hi+24(FP)
	VZEROUPPER
	RET

// func minmaxInt64AVX512(v *int64, n int) (lo, hi int64)
TEXT ·minmaxInt64AVX512(SB), NOSPLIT, $0-32
	MOVQ      v+0(FP), SI
	MOVQ      n+8(FP), CX
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQA64 Z0, Z2
	VMOVDQA64 Z1, Z3
	ADDQ      $128, SI
	SUBQ      $16, CX
	JZ        mm64z_reduce

mm64z_loop:
	VMOVDQU64 (SI), Z4
	VMOVDQU64 64(SI), Z5
	VPMINSQ   Z4, Z0, Z0
	VPMINSQ   Z5, Z1, Z1
	VPMAXSQ   Z4, Z2, Z2
	VPMAXSQ   Z5, Z3, Z3
	ADDQ      $128, SI
	SUBQ      $16, CX
	JNZ       mm64z_loop

mm64z_reduce:
	VPMINSQ       Z1, Z0, Z0
	VPMAXSQ       Z3, Z2, Z2
	VEXTRACTI64X4 $1, Z0, Y1
	VEXTRACTI64X4 $1, Z2, Y3
	VPMINSQ       Y1, Y0, Y0
	VPMAXSQ       Y3, Y2, Y2
	VEXTRACTI128  $1, Y0, X1
	VEXTRACTI128  $1, Y2, X3
	VPMINSQ       X1, X0, X0
	VPMAXSQ       X3, X2, X2
	VPSHUFD       $0x4E, X0, X1
	VPSHUFD       $0x4E, X2, X3
	VPMINSQ       X1, X0, X0
	VPMAXSQ       X3, X2, X2
	VMOVQ         X0, AX
	VMOVQ         X2, BX
	MOVQ          AX, lo+16(FP)
	MOVQ          BX, hi+24(FP)
	VZEROUPPER
	RET

// func minmaxFloat32AVX2(v *float32, n int) (lo, hi float32, nan bool)
TEXT ·minmaxFloat32AVX2(SB), NOSPLIT, $0-25
	MOVQ         v+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSS ·posInf32(SB), Y0
	VBROADCASTSS ·negInf32(SB), Y2
	VMOVAPS      Y0, Y1
	VMOVAPS      Y2, Y3
	VXORPS       Y8, Y8, Y8

mmf32_loop:
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMINPS  Y0, Y4, Y0
	VMINPS  Y1, Y5, Y1
	VMAXPS  Y2, Y4, Y2
	VMAXPS  Y3, Y5, Y3
	VCMPPS  $3, Y4, Y4, Y6
	VCMPPS  $3, Y5, Y5, Y7
	VORPS   Y6, Y8, Y8
	VORPS   Y7, Y8, Y8
	ADDQ    $64, SI
	SUBQ    $16, CX
	JNZ     mmf32_loop

	VMINPS       Y1, Y0, Y0
	VMAXPS       Y3, Y2, Y2
	VEXTRACTF128 $1, Y0, X1
	VEXTRACTF128 $1, Y2, X3
	VMINPS       X1, X0, X0
	VMAXPS       X3, X2, X2
	VPERMILPS    $0x4E, X0, X1
	VPERMILPS    $0x4E, X2, X3
	VMINPS       X1, X0, X0
	VMAXPS       X3, X2, X2
	VPERMILPS    $0xB1, X0, X1
	VPERMILPS    $0xB1, X2, X3
	VMINPS       X1, X0, X0
	VMAXPS       X3, X2, X2
	VMOVSS       X0, lo+16(FP)
	VMOVSS       X2, hi+20(FP)
	VMOVMSKPS    Y8, AX
	TESTL        AX, AX
	SETNE        nan+24(FP)
	VZEROUPPER
	RET

// func minmaxFloat64AVX2(v *float64, n int) (lo, hi float64, nan bool)
TEXT ·minmaxFloat64AVX2(SB), NOSPLIT, $0-33
	MOVQ         v+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD ·posInf64(SB), Y0
	VBROADCASTSD ·negInf64(SB), Y2
	VMOVAPD      Y0, Y1
	VMOVAPD      Y2, Y3
	VXORPD       Y8, Y8, Y8

mmf64_loop:
	VMOVUPD (SI), Y4
	VMOVUPD 32(SI), Y5
	VMOVUPD 64(SI), Y9
	VMOVUPD 96(SI), Y10
	VMINPD  Y0, Y4, Y0
	VMINPD  Y1, Y5, Y1
	VMAXPD  Y2, Y4, Y2
	VMAXPD  Y3, Y5, Y3
	VMINPD  Y0, Y9, Y0
	VMINPD  Y1, Y10, Y1
	VMAXPD  Y2, Y9, Y2
	VMAXPD  Y3, Y10, Y3
	VCMPPD  $3, Y4, Y4, Y6
	VCMPPD  $3, Y5, Y5, Y7
	VORPD   Y6, Y8, Y8
	VORPD   Y7, Y8, Y8
	VCMPPD  $3, Y9, Y9, Y6
	VCMPPD  $3, Y10, Y10, Y7
	VORPD   Y6, Y8, Y8
	VORPD   Y7, Y8, Y8
	ADDQ    $128, SI
	SUBQ    $16, CX
	JNZ     mmf64_loop

	VMINPD       Y1, Y0, Y0
	VMAXPD       Y3, Y2, Y2
	VEXTRACTF128 $1, Y0, X1
	VEXTRACTF128 $1, Y2, X3
	VMINPD       X1, X0, X0
	VMAXPD       X3, X2, X2
	VPERMILPD    $1, X0, X1
	VPERMILPD    $1, X2, X3
	VMINPD       X1, X0, X0
	VMAXPD       X3, X2, X2
	VMOVSD       X0, lo+16(FP)
	VMOVSD       X2, hi+24(FP)
	VMOVMSKPD    Y8, AX
	TESTL        AX, AX
	SETNE        nan+32(FP)
	VZEROUPPER
	RET
