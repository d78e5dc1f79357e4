package format

// Opt is an optional scalar field of a Thrift struct: a value and whether it
// was present. It avoids a heap allocation per optional field, which matters
// when a footer holds tens of thousands of column chunks.
type Opt[T any] struct {
	Value T
	Set   bool
}

// Some returns a present optional value.
func Some[T any](v T) Opt[T] { return Opt[T]{Value: v, Set: true} }

// Get returns the value and whether it is present.
func (o Opt[T]) Get() (T, bool) { return o.Value, o.Set }

// Or returns the value if present, else def.
func (o Opt[T]) Or(def T) T {
	if o.Set {
		return o.Value
	}
	return def
}
