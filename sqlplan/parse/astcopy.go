package parse

import (
	"reflect"

	"github.com/xwb1989/sqlparser"
)

// A prepared statement keeps the parser's tree and may run many times,
// while planning rewrites parts of the tree it is given (GROUP BY ALL's
// keys, QUALIFY taken out of HAVING, ORDER BY ALL, lateral aliases, ...).
// Each run therefore plans a copy, so that the statement stays as it was
// prepared and every run is planned from the same tree.

// CloneAST returns a deep copy of a parser tree.
func CloneAST[T sqlparser.SQLNode](n T) T {
	v := reflect.ValueOf(&n).Elem()
	out := reflect.New(v.Type()).Elem()
	out.Set(deepCopy(v))
	return out.Interface().(T)
}

// deepCopy copies v and everything it points to that the copy could
// change: pointers, slices, maps and the exported fields of structs
// (unexported fields, the parser's identifier strings, are copied by
// value).
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(deepCopy(v.Elem()))
		return p
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(deepCopy(v.Elem()))
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(deepCopy(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			out.SetMapIndex(it.Key(), deepCopy(it.Value()))
		}
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if f := out.Field(i); f.CanSet() {
				f.Set(deepCopy(v.Field(i)))
			}
		}
		return out
	}
	return v
}
