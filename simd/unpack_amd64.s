//go:build amd64 && gc && !purego && !noasm

#include "textflag.h"

// UNPACK_ARGS loads the arguments every unpack kernel takes.
#define UNPACK_ARGS \
	MOVQ dst+0(FP), DI \
	MOVQ src+8(FP), SI \
	MOVQ groups+16(FP), CX \
	MOVQ bw+24(FP), DX \
	MOVQ tab+32(FP), AX

// TAB_Y4_Y8 loads the first 128 bytes of the table into Y4..Y7 and
// broadcasts its 64-bit mask at byte 128 into Y8 (pair and wide layouts).
#define TAB_Y4_Y8 \
	VMOVDQU 0(AX), Y4 \
	VMOVDQU 32(AX), Y5 \
	VMOVDQU 64(AX), Y6 \
	VMOVDQU 96(AX), Y7 \
	VPBROADCASTQ 128(AX), Y8

// func unpack32NarrowAVX2(dst *int32, src *byte, groups, bw int, tab *unpackNarrowTab)
TEXT ·unpack32NarrowAVX2(SB), NOSPLIT, $0-40
	UNPACK_ARGS
	VMOVDQU 0(AX), Y1
	VMOVDQU 32(AX), Y2
	VPBROADCASTD 64(AX), Y3
	MOVQ 80(AX), BX

	// Two groups per iteration while possible.
	CMPQ CX, $2
	JB   narrow_one

narrow_two:
	VMOVDQU     (SI), X0
	VINSERTI128 $1, (SI)(BX*1), Y0, Y0
	LEAQ        (SI)(DX*1), R8
	VMOVDQU     (R8), X4
	VINSERTI128 $1, (R8)(BX*1), Y4, Y4
	VPSHUFB     Y1, Y0, Y0
	VPSHUFB     Y1, Y4, Y4
	VPSRLVD     Y2, Y0, Y0
	VPSRLVD     Y2, Y4, Y4
	VPAND       Y3, Y0, Y0
	VPAND       Y3, Y4, Y4
	VMOVDQU     Y0, (DI)
	VMOVDQU     Y4, 32(DI)
	LEAQ        (R8)(DX*1), SI
	ADDQ        $64, DI
	SUBQ        $2, CX
	CMPQ        CX, $2
	JAE         narrow_two

narrow_one:
	TESTQ CX, CX
	JZ    narrow_done
	VMOVDQU     (SI), X0
	VINSERTI128 $1, (SI)(BX*1), Y0, Y0
	VPSHUFB     Y1, Y0, Y0
	VPSRLVD     Y2, Y0, Y0
	VPAND       Y3, Y0, Y0
	VMOVDQU     Y0, (DI)

narrow_done:
	VZEROUPPER
	RET

// PAIRS loads the 8 values of the group at SI as two registers of four
// 64-bit lanes: Y0 = values 0..3, Y1 = values 4..7, shifted and masked.
#define PAIRS \
	VMOVDQU     (SI), X0 \
	VINSERTI128 $1, (SI)(R8*1), Y0, Y0 \
	VMOVDQU     (SI)(R9*1), X1 \
	VINSERTI128 $1, (SI)(R10*1), Y1, Y1 \
	VPSHUFB     Y4, Y0, Y0 \
	VPSHUFB     Y5, Y1, Y1 \
	VPSRLVQ     Y6, Y0, Y0 \
	VPSRLVQ     Y7, Y1, Y1 \
	VPAND       Y8, Y0, Y0 \
	VPAND       Y8, Y1, Y1

#define PAIRS_SETUP \
	UNPACK_ARGS \
	TAB_Y4_Y8 \
	MOVQ 136(AX), R8 \
	MOVQ 144(AX), R9 \
	MOVQ 152(AX), R10

// func unpack32PairAVX2(dst *int32, src *byte, groups, bw int, tab *unpackPairTab)
TEXT ·unpack32PairAVX2(SB), NOSPLIT, $0-40
	PAIRS_SETUP

pair32_loop:
	PAIRS
	// Narrow the 64-bit lanes to 32 bits, in order.
	VPSHUFD  $0x88, Y0, Y0
	VPSHUFD  $0x88, Y1, Y1
	VPBLENDD $0xCC, Y1, Y0, Y0
	VPERMQ   $0xD8, Y0, Y0
	VMOVDQU  Y0, (DI)
	ADDQ     DX, SI
	ADDQ     $32, DI
	DECQ     CX
	JNZ      pair32_loop
	VZEROUPPER
	RET

// func unpack64PairAVX2(dst *int64, src *byte, groups, bw int, tab *unpackPairTab)
TEXT ·unpack64PairAVX2(SB), NOSPLIT, $0-40
	PAIRS_SETUP

pair64_loop:
	PAIRS
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	ADDQ    DX, SI
	ADDQ    $64, DI
	DECQ    CX
	JNZ     pair64_loop
	VZEROUPPER
	RET

// func unpack64WideAVX2(dst *int64, src *byte, groups, bw int, tab *unpackWideTab)
TEXT ·unpack64WideAVX2(SB), NOSPLIT, $0-40
	UNPACK_ARGS
	TAB_Y4_Y8

wide64_loop:
	VMOVDQU (SI), Y0              // words 0..3
	VPERMQ  $0x90, Y0, Y1         // low words of values 0..3: 0, 0, 1, 2
	VPERMQ  $0xE5, Y0, Y2         // their high words: 1, 1, 2, 3
	VMOVDQU 24(SI), Y0            // low words of values 4..7: 3..6
	VMOVDQU 32(SI), Y3            // their high words: 4..7
	VPSRLVQ Y4, Y1, Y1
	VPSLLVQ Y6, Y2, Y2
	VPSRLVQ Y5, Y0, Y0
	VPSLLVQ Y7, Y3, Y3
	VPOR    Y2, Y1, Y1
	VPOR    Y3, Y0, Y0
	VPAND   Y8, Y1, Y1
	VPAND   Y8, Y0, Y0
	VMOVDQU Y1, (DI)
	VMOVDQU Y0, 32(DI)
	ADDQ    DX, SI
	ADDQ    $64, DI
	DECQ    CX
	JNZ     wide64_loop
	VZEROUPPER
	RET
