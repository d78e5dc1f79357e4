//go:build amd64 && gc && !purego && !noasm

package simd

var (
	unpackInt32    = unpackInt32Generic
	unpackInt64    = unpackInt64Generic
	gatherUint32   = gatherUint32Generic
	gatherUint64   = gatherUint64Generic
	gatherUint128  = gatherUint128Generic
	bssEncode4     = bssEncode4Generic
	bssEncode8     = bssEncode8Generic
	bssDecode4     = bssDecode4Generic
	bssDecode8     = bssDecode8Generic
	deltaInt32     = deltaInt32Generic
	deltaInt64     = deltaInt64Generic
	minmaxInt32    = minmaxInt32Generic
	minmaxInt64    = minmaxInt64Generic
	minmaxFloat32  = minmaxFloat32Generic
	minmaxFloat64  = minmaxFloat64Generic
	compareInt32   = compareInt32Generic
	compareInt64   = compareInt64Generic
	compareFloat32 = compareFloat32Generic
	compareFloat64 = compareFloat64Generic
)
