package driver

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Decimal is an exact decimal number: Unscaled × 10^-Scale. It scans
// DECIMAL columns (which the driver returns as exact text) without loss,
// and can be passed as an argument.
type Decimal struct {
	Unscaled *big.Int
	Scale    int32
}

// ParseDecimal parses decimal text such as "-12.340" or "1e3".
func ParseDecimal(s string) (Decimal, error) {
	s = strings.TrimSpace(s)
	mant, exp := s, 0
	if k := strings.IndexAny(s, "eE"); k >= 0 {
		e, err := strconv.Atoi(s[k+1:])
		if err != nil {
			return Decimal{}, fmt.Errorf("carquet: bad decimal %q", s)
		}
		mant, exp = s[:k], e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	u, ok := new(big.Int).SetString(intPart+frac, 10)
	if !ok || strings.ContainsAny(frac, "+-") {
		return Decimal{}, fmt.Errorf("carquet: bad decimal %q", s)
	}
	scale := int32(len(frac)) - int32(exp)
	if scale < 0 {
		u.Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-scale)), nil))
		scale = 0
	}
	return Decimal{Unscaled: u, Scale: scale}, nil
}

func (d Decimal) unscaled() *big.Int {
	if d.Unscaled == nil {
		return new(big.Int)
	}
	return d.Unscaled
}

// String formats the decimal exactly.
func (d Decimal) String() string {
	s := d.unscaled().String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if d.Scale > 0 {
		sc := int(d.Scale)
		if len(s) <= sc {
			s = strings.Repeat("0", sc-len(s)+1) + s
		}
		s = s[:len(s)-sc] + "." + s[len(s)-sc:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// Float64 is the nearest float64.
func (d Decimal) Float64() float64 {
	f, _ := strconv.ParseFloat(d.String(), 64)
	return f
}

// Scan implements sql.Scanner.
func (d *Decimal) Scan(src any) error {
	switch v := src.(type) {
	case string:
		x, err := ParseDecimal(v)
		if err != nil {
			return err
		}
		*d = x
	case []byte:
		return d.Scan(string(v))
	case int64:
		*d = Decimal{Unscaled: big.NewInt(v)}
	case uint64:
		*d = Decimal{Unscaled: new(big.Int).SetUint64(v)}
	case float64:
		return d.Scan(strconv.FormatFloat(v, 'f', -1, 64))
	case nil:
		return fmt.Errorf("carquet: cannot scan NULL into Decimal (use NullDecimal)")
	default:
		return fmt.Errorf("carquet: cannot scan %T into Decimal", src)
	}
	return nil
}

// Value implements driver.Valuer (as exact text).
func (d Decimal) Value() (driver.Value, error) { return d.String(), nil }

// NullDecimal is a Decimal that may be NULL.
type NullDecimal struct {
	Decimal Decimal
	Valid   bool
}

// Scan implements sql.Scanner.
func (n *NullDecimal) Scan(src any) error {
	if src == nil {
		n.Valid = false
		return nil
	}
	n.Valid = true
	return n.Decimal.Scan(src)
}

// JSON scans any value as JSON text: lists, structs and maps (which the
// driver returns as Go slices and maps) become arrays and objects,
// strings stay as they are (a JSON column's text), times are RFC 3339.
// NULL scans as nil.
type JSON []byte

// Scan implements sql.Scanner.
func (j *JSON) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*j = nil
		return nil
	case string:
		*j = JSON(v)
		return nil
	case []byte:
		*j = append(JSON(nil), v...)
		return nil
	case time.Time:
		*j = JSON(strconv.Quote(v.Format(time.RFC3339Nano)))
		return nil
	}
	b, err := json.Marshal(src)
	if err != nil {
		return fmt.Errorf("carquet: %w", err)
	}
	*j = b
	return nil
}

// String returns the JSON text.
func (j JSON) String() string { return string(j) }
