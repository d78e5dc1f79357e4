package inflate

import "errors"

// A table entry is a uint32 that says, for the bits at the front of the
// bit buffer, which symbol they start and how to continue:
//
//	bits  0..4   bits to drop: the code, plus for lengths and distances
//	             their extra bits, so that one shift passes both
//	bits  8..11  the code's own length (the extra bits start there), or
//	             for entLink the index width of the subtable
//	bits 12..15  kind flags (entLiteral, entEnd, entLink, entBad)
//	bits 16..31  value: the literal byte, the base length or distance,
//	             or for entLink the subtable's start in the same array
//
// A length or distance entry has no kind flag, so the hot loop tests only
// entLiteral first.
const (
	entLiteral = 1 << 12
	entEnd     = 1 << 13
	entLink    = 1 << 14
	entBad     = 1 << 15
)

const maxCodeLen = 15

// Primary table widths. Codes up to this length resolve in one lookup;
// longer ones go through a subtable reached from the primary entry that
// holds their first bits. 10 bits covers nearly every literal/length code
// a real encoder emits, 8 bits nearly every distance code.
const (
	litBits  = 10
	distBits = 8
	clenBits = 7 // code-length codes are at most 7 bits: never a subtable
)

// Table sizes: the primary table plus, at most, one full-width subtable for
// every code longer than the primary width (each subtable belongs to one
// prefix, and each prefix with a subtable holds at least one long code).
const (
	maxLitSyms  = 288
	maxDistSyms = 32
	litTableLen = 1<<litBits + maxLitSyms<<(maxCodeLen-litBits)
	// distTableLen bounds the distance table likewise.
	distTableLen = 1<<distBits + maxDistSyms<<(maxCodeLen-distBits)
)

var (
	errOversubscribed = errors.New("over-subscribed Huffman code")
	errIncomplete     = errors.New("incomplete Huffman code")
)

// symbolInfo maps a symbol to its table entry before the code length is
// added: a literal, the end of block, a length or distance base with its
// count of extra bits in bits 0..4, or entBad for symbols a stream may
// define but never use (286, 287, and distances 30, 31).
type symbolInfo func(sym int) uint32

// build fills table (primary part 1<<primary entries, then subtables) with
// the canonical Huffman code given by lengths (RFC 1951 3.2.2). It rejects
// over-subscribed codes and incomplete ones, except the two cases DEFLATE
// decoders accept: no codes at all, and a single code of length 1. Unused
// entries of such a table are entBad.
func build(table []uint32, primary uint, lengths []uint8, info symbolInfo) error {
	var count [maxCodeLen + 1]int
	for _, n := range lengths {
		count[n]++
	}
	count[0] = 0
	left, used, maxLen := 1, 0, 0
	for n := 1; n <= maxCodeLen; n++ {
		left = left<<1 - count[n]
		if left < 0 {
			return errOversubscribed
		}
		if count[n] > 0 {
			maxLen = n
		}
		used += count[n]
	}
	if left > 0 && !(used == 0 || (used == 1 && maxLen == 1)) {
		return errIncomplete
	}
	// First canonical code of each length.
	var next [maxCodeLen + 1]int
	code := 0
	for n := 1; n <= maxCodeLen; n++ {
		code = (code + count[n-1]) << 1
		next[n] = code
	}

	size := 1 << primary
	for i := range table[:size] {
		table[i] = entBad
	}
	// Subtable widths: for each primary index, the longest code under it
	// minus the primary width.
	var subWidth [1 << litBits]uint8
	codes := next
	for _, n := range lengths {
		if uint(n) <= primary {
			continue
		}
		c := codes[n]
		codes[n]++
		idx := reverse(c, uint(n)) & (size - 1)
		if w := n - uint8(primary); w > subWidth[idx] {
			subWidth[idx] = w
		}
	}
	end := size
	for idx := range size {
		w := subWidth[idx]
		if w == 0 {
			continue
		}
		n := 1 << w
		if end+n > len(table) {
			return errOversubscribed // unreachable for a checked code
		}
		for i := range table[end : end+n] {
			table[end+i] = entBad
		}
		table[idx] = uint32(end)<<16 | uint32(w)<<8 | entLink
		end += n
	}
	// Fill: a code of length n covers every index whose low n bits are its
	// bit-reversed value (DEFLATE sends Huffman codes most significant bit
	// first into a least-significant-first stream).
	codes = next
	for sym, n := range lengths {
		if n == 0 {
			continue
		}
		c := codes[n]
		codes[n]++
		r := reverse(c, uint(n))
		e := info(sym) + uint32(n) | uint32(n)<<8
		if uint(n) <= primary {
			for i := r; i < size; i += 1 << n {
				table[i] = e
			}
			continue
		}
		link := table[r&(size-1)]
		base, w := int(link>>16), uint(link>>8&15)
		for i := r >> primary; i < 1<<w; i += 1 << (uint(n) - primary) {
			table[base+i] = e
		}
	}
	return nil
}

// reverse returns the low n bits of c in reverse order.
func reverse(c int, n uint) int {
	r := 0
	for range n {
		r = r<<1 | c&1
		c >>= 1
	}
	return r
}
