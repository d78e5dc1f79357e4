package inflate

import "encoding/binary"

// Fixed Huffman tables (RFC 1951 3.2.6), built once.
var (
	fixedLit  [litTableLen]uint32
	fixedDist [distTableLen]uint32
)

// Bases and extra-bit counts of length symbols 257..285 and distance
// symbols 0..29 (RFC 1951 3.2.5), filled by init.
var (
	lengthBase  [29]uint32
	lengthExtra [29]uint32
	distBase    [30]uint32
	distExtra   [30]uint32
)

func init() {
	base := uint32(3)
	for i := range 28 {
		if i >= 8 {
			lengthExtra[i] = uint32(i-4) / 4
		}
		lengthBase[i] = base
		base += 1 << lengthExtra[i]
	}
	lengthBase[28] = 258 // symbol 285: the longest match, with no extra bits
	base = 1
	for i := range 30 {
		if i >= 4 {
			distExtra[i] = uint32(i/2 - 1)
		}
		distBase[i] = base
		base += 1 << distExtra[i]
	}

	var lengths [maxLitSyms]uint8
	for i := range lengths {
		switch {
		case i < 144:
			lengths[i] = 8
		case i < 256:
			lengths[i] = 9
		case i < 280:
			lengths[i] = 7
		default:
			lengths[i] = 8
		}
	}
	if err := build(fixedLit[:], litBits, lengths[:], litInfo); err != nil {
		panic(err)
	}
	for i := range maxDistSyms {
		lengths[i] = 5
	}
	if err := build(fixedDist[:], distBits, lengths[:maxDistSyms], distInfo); err != nil {
		panic(err)
	}
}

// litInfo is the entry of a literal/length symbol, without its code length.
func litInfo(sym int) uint32 {
	switch {
	case sym < 256:
		return uint32(sym)<<16 | entLiteral
	case sym == 256:
		return entEnd
	case sym <= 285:
		return lengthBase[sym-257]<<16 | lengthExtra[sym-257]
	}
	return entBad // 286 and 287 take part in the code but mean nothing
}

// distInfo is the entry of a distance symbol, without its code length.
func distInfo(sym int) uint32 {
	if sym < 30 {
		return distBase[sym]<<16 | distExtra[sym]
	}
	return entBad
}

// clenInfo is the entry of a code-length symbol: the symbol itself.
func clenInfo(sym int) uint32 { return uint32(sym) << 16 }

// clenOrder is the order in which a dynamic block sends the code lengths of
// the code-length alphabet.
var clenOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// dynamic reads a dynamic block's header (RFC 1951 3.2.7) and builds its
// literal/length and distance tables.
func (d *decoder) dynamic() error {
	if d.nbits < 14 {
		if err := d.refill(); err != nil {
			return err
		}
	}
	nlit := int(d.bits&31) + 257
	ndist := int(d.bits>>5&31) + 1
	nclen := int(d.bits>>10&15) + 4
	d.bits >>= 14
	d.nbits -= 14
	if nlit > 286 || ndist > 30 {
		return d.fail(errCounts)
	}
	var clens [19]uint8
	for _, sym := range clenOrder[:nclen] {
		v, err := d.take(3)
		if err != nil {
			return err
		}
		clens[sym] = uint8(v)
	}
	if err := build(d.clen[:], clenBits, clens[:], clenInfo); err != nil {
		return d.fail(err)
	}
	lengths := d.lengths[:nlit+ndist]
	for i := 0; i < len(lengths); {
		if d.nbits < 16 { // a code of up to 7 bits and up to 7 repeat bits
			if err := d.refill(); err != nil {
				return err
			}
		}
		e := d.clen[d.bits&(1<<clenBits-1)]
		if e&entBad != 0 {
			return d.fail(errSymbol)
		}
		d.bits >>= e & 31
		d.nbits -= uint(e & 31)
		sym := e >> 16
		if sym < 16 {
			lengths[i] = uint8(sym)
			i++
			continue
		}
		var fill uint8
		var rep int
		switch sym {
		case 16:
			if i == 0 {
				return d.fail(errRepeat)
			}
			fill, rep = lengths[i-1], 3+int(d.bits&3)
			d.bits >>= 2
			d.nbits -= 2
		case 17:
			rep = 3 + int(d.bits&7)
			d.bits >>= 3
			d.nbits -= 3
		default:
			rep = 11 + int(d.bits&127)
			d.bits >>= 7
			d.nbits -= 7
		}
		if rep > len(lengths)-i {
			return d.fail(errRepeat)
		}
		for range rep {
			lengths[i] = fill
			i++
		}
	}
	if lengths[256] == 0 {
		return d.fail(errNoEndOfBlock)
	}
	if err := build(d.lit[:], litBits, lengths[:nlit], litInfo); err != nil {
		return d.fail(err)
	}
	if err := build(d.dist[:], distBits, lengths[nlit:], distInfo); err != nil {
		return d.fail(err)
	}
	return nil
}

// huffman decodes one Huffman-coded block with the given tables. It is the
// hot loop: the decoder's state lives in locals, the bit buffer is refilled
// by one unaligned load while at least eight input bytes remain, and one
// refill (at least 56 bits) covers a whole length/distance pair (at most
// 15+5+15+13 = 48 bits).
func (d *decoder) huffman(lit *[litTableLen]uint32, dist *[distTableLen]uint32) error {
	src, dst := d.src, d.dst
	bits, nbits, pos, o := d.bits, d.nbits, d.pos, d.o
	// Errors leave through stop, outside the loop, so that no error value
	// stays live in the loop's registers.
	var why error
	for {
		// Refill at every symbol while eight input bytes remain: a load
		// costs less than the badly predicted branch on the bit count.
		if pos <= len(src)-8 {
			bits |= binary.LittleEndian.Uint64(src[pos:]) << (nbits & 63)
			pos += int((63 - nbits) >> 3)
			nbits |= 56
		} else if nbits < 48 {
			d.bits, d.nbits, d.pos, d.o = bits, nbits, pos, o
			if err := d.refill(); err != nil {
				return err
			}
			bits, nbits, pos = d.bits, d.nbits, d.pos
		}
		e := lit[bits&(1<<litBits-1)]
		if e&entLink != 0 {
			e = lit[int(e>>16)+int(bits>>litBits)&(1<<(e>>8&15)-1)]
		}
		if e&entLiteral != 0 {
			bits >>= e & 31
			nbits -= uint(e & 31)
			if uint(o) >= uint(len(dst)) {
				why = ErrTooLong
				break
			}
			dst[o] = byte(e >> 16)
			o++
			continue
		}
		if e&(entEnd|entBad) != 0 {
			bits >>= e & 31
			nbits -= uint(e & 31)
			if e&entBad != 0 {
				why = errSymbol
			}
			break
		}
		// The extra bits follow the code; one shift drops both.
		length := int(e>>16) + int(bits&(1<<(e&31)-1)>>(e>>8&15))
		bits >>= e & 31
		nbits -= uint(e & 31)

		e = dist[bits&(1<<distBits-1)]
		if e&entLink != 0 {
			e = dist[int(e>>16)+int(bits>>distBits)&(1<<(e>>8&15)-1)]
		}
		if e&entBad != 0 {
			why = errDistSymbol
			break
		}
		distance := int(e>>16) + int(bits&(1<<(e&31)-1)>>(e>>8&15))
		bits >>= e & 31
		nbits -= uint(e & 31)

		if distance > o {
			why = errDistance
			break
		}
		if length > len(dst)-o {
			why = ErrTooLong
			break
		}
		copyMatch(dst, o, distance, length)
		o += length
	}
	d.bits, d.nbits, d.pos, d.o = bits, nbits, pos, o
	if why != nil {
		return d.fail(why)
	}
	return nil
}

// copyMatch copies length bytes from distance bytes back to dst[o:]; the
// caller has checked that both ranges lie in dst. Where the source is at
// least eight bytes back and there is room for a word's overshoot, it moves
// whole words: each word read is already final, and bytes written past the
// match's end are rewritten later. Shorter distances repeat a pattern, which
// doubles with each copy.
func copyMatch(dst []byte, o, distance, length int) {
	from := o - distance
	if distance >= 8 && length+8 <= len(dst)-o {
		for i := 0; i < length; i += 8 {
			binary.LittleEndian.PutUint64(dst[o+i:], binary.LittleEndian.Uint64(dst[from+i:]))
		}
		return
	}
	end := o + length
	for o < end {
		o += copy(dst[o:end], dst[from:o])
	}
}
