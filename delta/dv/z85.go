package dv

import "fmt"

// z85Alphabet is the 85-character alphabet of ZeroMQ's Z85 (RFC 32/Z85).
const z85Alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"

// z85Decode maps a byte to its digit value, or 0xFF when the byte is not in
// the alphabet.
var z85Decode = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for i := 0; i < len(z85Alphabet); i++ {
		t[z85Alphabet[i]] = byte(i)
	}
	return t
}()

// EncodeZ85 encodes src with Z85: every 4 bytes, read as a big-endian uint32,
// become 5 characters, most significant digit first. As the Z85 specification
// requires, len(src) must be a multiple of 4.
//
// Delta encodes inline deletion vectors (storage type "i") whose serialized
// size is not a multiple of 4 by padding the bytes with zeros up to the next
// multiple of 4 before encoding; the descriptor's sizeInBytes keeps the
// unpadded length and readers drop the padding after decoding. [Inline] does
// this padding; EncodeZ85 itself never pads.
func EncodeZ85(src []byte) (string, error) {
	if len(src)%4 != 0 {
		return "", fmt.Errorf("dv: z85: input length %d is not a multiple of 4", len(src))
	}
	return string(appendZ85(make([]byte, 0, len(src)/4*5), src)), nil
}

// appendZ85 appends the Z85 text of src (len(src)%4 == 0) to dst.
func appendZ85(dst, src []byte) []byte {
	for i := 0; i+4 <= len(src); i += 4 {
		v := uint32(src[i])<<24 | uint32(src[i+1])<<16 | uint32(src[i+2])<<8 | uint32(src[i+3])
		var block [5]byte
		for j := 4; j >= 0; j-- {
			block[j] = z85Alphabet[v%85]
			v /= 85
		}
		dst = append(dst, block[:]...)
	}
	return dst
}

// DecodeZ85 decodes Z85 text: len(s) must be a multiple of 5, every character
// must be in the Z85 alphabet and every 5-character block must denote a value
// below 2^32. The result has len(s)/5*4 bytes; callers that know the unpadded
// length (an inline deletion vector's sizeInBytes) truncate it themselves.
func DecodeZ85(s string) ([]byte, error) {
	if len(s)%5 != 0 {
		return nil, fmt.Errorf("dv: z85: input length %d is not a multiple of 5", len(s))
	}
	out := make([]byte, 0, len(s)/5*4)
	for i := 0; i < len(s); i += 5 {
		var v uint64
		for j := i; j < i+5; j++ {
			d := z85Decode[s[j]]
			if d == 0xFF {
				return nil, fmt.Errorf("dv: z85: invalid character %q at position %d", s[j], j)
			}
			v = v*85 + uint64(d)
		}
		if v > 0xFFFFFFFF {
			return nil, fmt.Errorf("dv: z85: block at position %d exceeds 32 bits", i)
		}
		out = append(out, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	}
	return out, nil
}
