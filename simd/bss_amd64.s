//go:build amd64 && gc && !purego && !noasm

#include "textflag.h"

// DEC4 turns 32 bytes of each of four streams (a, b, c, d) into 32
// four-byte values, in order, in t0..t3 (a..d are clobbered).
#define DEC4(a, b, c, d, t0, t1, t2, t3) \
	VPUNPCKLBW b, a, t0 \
	VPUNPCKHBW b, a, t1 \
	VPUNPCKLBW d, c, t2 \
	VPUNPCKHBW d, c, t3 \
	VPUNPCKLWD t2, t0, a \
	VPUNPCKHWD t2, t0, b \
	VPUNPCKLWD t3, t1, c \
	VPUNPCKHWD t3, t1, d \
	VPERM2I128 $0x20, b, a, t0 \
	VPERM2I128 $0x20, d, c, t1 \
	VPERM2I128 $0x31, b, a, t2 \
	VPERM2I128 $0x31, d, c, t3

// func bssDecode4AVX2(dst, src *byte, stride, blocks int)
TEXT ·bssDecode4AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), AX
	MOVQ blocks+24(FP), CX
	LEAQ (SI)(AX*1), R8
	LEAQ (R8)(AX*1), R9
	LEAQ (R9)(AX*1), R10
	XORQ DX, DX

dec4_loop:
	VMOVDQU (SI)(DX*1), Y0
	VMOVDQU (R8)(DX*1), Y1
	VMOVDQU (R9)(DX*1), Y2
	VMOVDQU (R10)(DX*1), Y3
	DEC4(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	VMOVDQU Y4, (DI)
	VMOVDQU Y5, 32(DI)
	VMOVDQU Y6, 64(DI)
	VMOVDQU Y7, 96(DI)
	ADDQ    $32, DX
	ADDQ    $128, DI
	DECQ    CX
	JNZ     dec4_loop
	VZEROUPPER
	RET

// ILV8 interleaves four-byte halves lo and hi of 8 values into two
// registers of four 8-byte values and stores them at off(DI).
#define ILV8(lo, hi, t0, t1, off) \
	VPUNPCKLDQ hi, lo, t0 \
	VPUNPCKHDQ hi, lo, t1 \
	VPERM2I128 $0x20, t1, t0, lo \
	VPERM2I128 $0x31, t1, t0, hi \
	VMOVDQU    lo, off(DI) \
	VMOVDQU    hi, (off+32)(DI)

// func bssDecode8AVX2(dst, src *byte, stride, blocks int)
TEXT ·bssDecode8AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), AX
	MOVQ blocks+24(FP), CX
	LEAQ (SI)(AX*4), BX // stream 4
	XORQ DX, DX

dec8_loop:
	MOVQ    SI, R8
	VMOVDQU (R8)(DX*1), Y0
	ADDQ    AX, R8
	VMOVDQU (R8)(DX*1), Y1
	ADDQ    AX, R8
	VMOVDQU (R8)(DX*1), Y2
	ADDQ    AX, R8
	VMOVDQU (R8)(DX*1), Y3
	DEC4(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	MOVQ    BX, R8
	VMOVDQU (R8)(DX*1), Y0
	ADDQ    AX, R8
	VMOVDQU (R8)(DX*1), Y1
	ADDQ    AX, R8
	VMOVDQU (R8)(DX*1), Y2
	ADDQ    AX, R8
	VMOVDQU (R8)(DX*1), Y3
	DEC4(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11)
	ILV8(Y4, Y8, Y12, Y13, 0)
	ILV8(Y5, Y9, Y12, Y13, 64)
	ILV8(Y6, Y10, Y12, Y13, 128)
	ILV8(Y7, Y11, Y12, Y13, 192)
	ADDQ $32, DX
	ADDQ $256, DI
	DECQ CX
	JNZ  dec8_loop
	VZEROUPPER
	RET

// ENC4 takes 32 four-byte values in r0..r3 and leaves stream k's 32
// bytes in s_k (r0..r3 and t0..t3 clobbered; Y14 = shuffle, Y15 = perm).
#define ENC4(r0, r1, r2, r3, t0, t1, t2, t3) \
	VPSHUFB     Y14, r0, r0 \
	VPSHUFB     Y14, r1, r1 \
	VPSHUFB     Y14, r2, r2 \
	VPSHUFB     Y14, r3, r3 \
	VPERMD      r0, Y15, r0 \
	VPERMD      r1, Y15, r1 \
	VPERMD      r2, Y15, r2 \
	VPERMD      r3, Y15, r3 \
	VPUNPCKLQDQ r1, r0, t0 \
	VPUNPCKHQDQ r1, r0, t1 \
	VPUNPCKLQDQ r3, r2, t2 \
	VPUNPCKHQDQ r3, r2, t3 \
	VPERM2I128  $0x20, t2, t0, r0 \
	VPERM2I128  $0x20, t3, t1, r1 \
	VPERM2I128  $0x31, t2, t0, r2 \
	VPERM2I128  $0x31, t3, t1, r3

// func bssEncode4AVX2(dst, src *byte, n, blocks int)
TEXT ·bssEncode4AVX2(SB), NOSPLIT, $0-32
	MOVQ    dst+0(FP), DI
	MOVQ    src+8(FP), SI
	MOVQ    n+16(FP), AX
	MOVQ    blocks+24(FP), CX
	VMOVDQU ·bssShuf4(SB), Y14
	VMOVDQU ·bssPerm4(SB), Y15
	LEAQ    (DI)(AX*1), R8
	LEAQ    (R8)(AX*1), R9
	LEAQ    (R9)(AX*1), R10
	XORQ    DX, DX

enc4_loop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	ENC4(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	VMOVDQU Y0, (DI)(DX*1)
	VMOVDQU Y1, (R8)(DX*1)
	VMOVDQU Y2, (R9)(DX*1)
	VMOVDQU Y3, (R10)(DX*1)
	ADDQ    $32, DX
	ADDQ    $128, SI
	DECQ    CX
	JNZ     enc4_loop
	VZEROUPPER
	RET

// SPLIT8 loads 8 eight-byte values at off(SI) and leaves their low four
// bytes in lo and high four bytes in hi, in order.
#define SPLIT8(off, lo, hi, t) \
	VMOVDQU off(SI), lo \
	VMOVDQU (off+32)(SI), t \
	VSHUFPS $0xDD, t, lo, hi \
	VSHUFPS $0x88, t, lo, lo \
	VPERMQ  $0xD8, lo, lo \
	VPERMQ  $0xD8, hi, hi

// func bssEncode8AVX2(dst, src *byte, n, blocks int)
TEXT ·bssEncode8AVX2(SB), NOSPLIT, $0-32
	MOVQ    dst+0(FP), DI
	MOVQ    src+8(FP), SI
	MOVQ    n+16(FP), AX
	MOVQ    blocks+24(FP), CX
	VMOVDQU ·bssShuf4(SB), Y14
	VMOVDQU ·bssPerm4(SB), Y15
	XORQ    DX, DX

enc8_loop:
	SPLIT8(0, Y0, Y4, Y12)
	SPLIT8(64, Y1, Y5, Y12)
	SPLIT8(128, Y2, Y6, Y12)
	SPLIT8(192, Y3, Y7, Y12)
	ENC4(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11)
	ENC4(Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11)
	MOVQ    DI, R8
	VMOVDQU Y0, (R8)(DX*1)
	ADDQ    AX, R8
	VMOVDQU Y1, (R8)(DX*1)
	ADDQ    AX, R8
	VMOVDQU Y2, (R8)(DX*1)
	ADDQ    AX, R8
	VMOVDQU Y3, (R8)(DX*1)
	ADDQ    AX, R8
	VMOVDQU Y4, (R8)(DX*1)
	ADDQ    AX, R8
	VMOVDQU Y5, (R8)(DX*1)
	ADDQ    AX, R8
	VMOVDQU Y6, (R8)(DX*1)
	ADDQ    AX, R8
	VMOVDQU Y7, (R8)(DX*1)
	ADDQ    $32, DX
	ADDQ    $256, SI
	DECQ    CX
	JNZ     enc8_loop
	VZEROUPPER
	RET
