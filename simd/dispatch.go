package simd

// kernels is one complete set of kernel implementations. goKernels is the
// portable set; on amd64 the CPU's best set replaces it at start-up.
type kernels struct {
	name           string
	unpackInt32    func(dst []int32, src []byte, bitWidth uint)
	unpackInt64    func(dst []int64, src []byte, bitWidth uint)
	gatherUint32   func(dst, dict []uint32, idx []int32) int
	gatherUint64   func(dst, dict []uint64, idx []int32) int
	gatherUint128  func(dst, dict [][16]byte, idx []int32) int
	bssEncode4     func(dst, src []byte)
	bssEncode8     func(dst, src []byte)
	bssDecode4     func(dst, src []byte, stride int)
	bssDecode8     func(dst, src []byte, stride int)
	deltaInt32     func(v []int32, last, minDelta int32) int32
	deltaInt64     func(v []int64, last, minDelta int64) int64
	minmaxInt32    func(v []int32) (int32, int32)
	minmaxInt64    func(v []int64) (int64, int64)
	minmaxFloat32  func(v []float32) (float32, float32, bool, bool)
	minmaxFloat64  func(v []float64) (float64, float64, bool, bool)
	compareInt32   func(dst []uint64, v []int32, op CmpOp, c int32)
	compareInt64   func(dst []uint64, v []int64, op CmpOp, c int64)
	compareFloat32 func(dst []uint64, v []float32, op CmpOp, c float32)
	compareFloat64 func(dst []uint64, v []float64, op CmpOp, c float64)
}

var goKernels = kernels{
	name:           "purego",
	unpackInt32:    unpackInt32Generic,
	unpackInt64:    unpackInt64Generic,
	gatherUint32:   gatherUint32Generic,
	gatherUint64:   gatherUint64Generic,
	gatherUint128:  gatherUint128Generic,
	bssEncode4:     bssEncode4Generic,
	bssEncode8:     bssEncode8Generic,
	bssDecode4:     bssDecode4Generic,
	bssDecode8:     bssDecode8Generic,
	deltaInt32:     deltaInt32Generic,
	deltaInt64:     deltaInt64Generic,
	minmaxInt32:    minmaxInt32Generic,
	minmaxInt64:    minmaxInt64Generic,
	minmaxFloat32:  minmaxFloat32Generic,
	minmaxFloat64:  minmaxFloat64Generic,
	compareInt32:   compareInt32Generic,
	compareInt64:   compareInt64Generic,
	compareFloat32: compareFloat32Generic,
	compareFloat64: compareFloat64Generic,
}

// impl is the set in use; variants lists every set this CPU can run,
// portable first, for the tests and benchmarks that compare them.
var (
	impl     = &goKernels
	variants = []*kernels{&goKernels}
)

// Implementation names the kernel set chosen at start-up: "avx512", "avx2"
// or "purego".
func Implementation() string { return impl.name }

// Implementations lists the kernel sets this CPU can run, portable first.
func Implementations() []string {
	names := make([]string, len(variants))
	for i, k := range variants {
		names[i] = k.name
	}
	return names
}

// SetImplementation switches every kernel to the named set (one of
// Implementations) and returns the name of the previous one. It is meant
// for tests and benchmarks that compare the sets inside one binary, and
// must not be called while kernels run on other goroutines.
func SetImplementation(name string) (previous string, ok bool) {
	for _, k := range variants {
		if k.name == name {
			previous, impl = impl.name, k
			return previous, true
		}
	}
	return impl.name, false
}
