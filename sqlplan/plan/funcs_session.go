package plan

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Functions of the session and the statement that DuckDB (v1.5) has and
// carquet lacked: current_query(), txid_current() and
// current_transaction_id(), current_connection_id(), setseed(x) (random()
// repeats its sequence after it, per connection), sleep_ms(ms), and
// array_value (carquet has no fixed-size ARRAY type: the values make a
// list, as list_value makes it).

func init() {
	addFuncs(map[string]*fn{
		"current_query":          {Min: 0, Max: 0},
		"txid_current":           {Min: 0, Max: 0},
		"current_transaction_id": {Min: 0, Max: 0},
		"current_connection_id":  {Min: 0, Max: 0},
		"setseed":                {Min: 1, Max: 1, Volatile: true},
		"sleep_ms":               {Min: 1, Max: 1, Volatile: true},
		"array_value":            {Min: 0, Max: -1},
	})
}

// Process-wide counters of the ids: unique among the engines of a
// process, as DuckDB's are within its database.
var (
	LastConnectionID  atomic.Uint64
	LastTransactionID atomic.Uint64
)

// SessionRand is a connection's random numbers: the process's until
// setseed seeds the connection's own source.
type SessionRand struct {
	mu sync.Mutex
	r  *rand.Rand
}

// fill sets dst to random()'s next values.
func (s *SessionRand) fill(dst []float64) {
	next := rand.Float64
	if s != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.r != nil {
			next = s.r.Float64
		}
	}
	for i := range dst {
		dst[i] = next()
	}
}

// seed makes the sequence of x (from -1 to 1) the connection's.
func (s *SessionRand) seed(x float64) {
	if s == nil {
		return
	}
	bits := uint64(int64(x * (1 << 53)))
	s.mu.Lock()
	s.r = rand.New(rand.NewPCG(bits, bits^0x9e3779b97f4a7c15))
	s.mu.Unlock()
}

// bindSessionFunc binds this file's functions and random(); ok is false
// for other names.
func (p *Planner) bindSessionFunc(name string, args []Expr) (Expr, bool, error) {
	switch name {
	case "current_query":
		text := ""
		if p.Src != nil {
			text = p.Src.Orig
		}
		return &ConstExpr{T: TString, V: text}, true, nil
	case "txid_current", "current_transaction_id":
		return &ConstExpr{T: Type{Kind: KUint}, V: p.Cat.TransactionID()}, true, nil
	case "current_connection_id":
		return &ConstExpr{T: Type{Kind: KUint}, V: p.Set.ConnID}, true, nil
	case "random":
		rng := p.Set.Rng
		e := &funcExpr{name: name, t: tFloat, vec: func(_ []*Col, n int) (*Col, error) {
			out := &Col{T: tFloat, Len: n, F: make([]float64, n)}
			rng.fill(out.F)
			return out, nil
		}}
		e.setText("random()")
		return e, true, nil
	case "setseed":
		e, err := p.bindSetseed(args[0])
		return e, true, err
	case "sleep_ms":
		e, err := p.bindSleep(args[0])
		return e, true, err
	case "array_value":
		if len(args) == 0 {
			return nil, true, errorf("array_value requires at least one argument")
		}
		return p.bindNested("list_value", args)
	}
	return nil, false, nil
}

// bindSetseed is setseed(x): it seeds the connection's random() and is
// NULL.
func (p *Planner) bindSetseed(x Expr) (Expr, error) {
	seed, err := p.cast(x, tFloat)
	if err != nil {
		return nil, err
	}
	rng := p.Set.Rng
	e := &funcExpr{name: "setseed", args: []Expr{seed}, t: Type{Kind: KNull}, strict: true, row: func(a []*Col, i int) (any, error) {
		v := a[0].F[i]
		if v < -1 || v > 1 {
			return nil, errorf("SETSEED accepts seed values between -1.0 and 1.0, inclusive")
		}
		rng.seed(v)
		return nil, nil
	}}
	e.setText("setseed(" + x.String() + ")")
	return e, nil
}

// bindSleep is sleep_ms(ms): it waits ms milliseconds (none for a
// negative count), or until the statement is cancelled, and is NULL.
func (p *Planner) bindSleep(x Expr) (Expr, error) {
	ms, err := p.cast(x, TInt)
	if err != nil {
		return nil, err
	}
	ctx := p.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	e := &funcExpr{name: "sleep_ms", args: []Expr{ms}, t: Type{Kind: KNull}, strict: true, row: func(a []*Col, i int) (any, error) {
		d := a[0].I[i]
		if d <= 0 {
			return nil, nil
		}
		t := time.NewTimer(time.Duration(min(d, int64(time.Duration(1<<62)/time.Millisecond))) * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	e.setText("sleep_ms(" + x.String() + ")")
	return e, nil
}

// bindSequenceCall binds nextval(name) and currval(name).
func (p *Planner) bindSequenceCall(name string, args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, errorf("%s takes the name of a sequence", name)
	}
	k, ok := IsConst(args[0])
	seqName, isStr := k.V.(string)
	if !ok || !isStr {
		return nil, errorf("%s takes the name of a sequence as a string", name)
	}
	seqName = strings.ToLower(seqName)
	next, ok := p.Cat.Sequence(seqName)
	if !ok {
		return nil, errorf("sequence %q does not exist", seqName)
	}
	currval := name == "currval"
	f := &funcExpr{name: name, args: nil, t: TInt, row: func(_ []*Col, _ int) (any, error) {
		return next(currval)
	}}
	f.setText(name + "('" + seqName + "')")
	return f, nil
}

// bindCurrentSetting binds current_setting('name'): the value the
// statement runs with, a constant.
func (p *Planner) bindCurrentSetting(args []Expr) (Expr, error) {
	k, ok := IsConst(args[0])
	if !ok {
		return nil, errorf("Key name for current_setting needs to be a constant string")
	}
	name, isStr := k.V.(string)
	if !isStr && k.V != nil {
		return nil, errorf("Key name for current_setting needs to be a constant string")
	}
	if name == "" {
		return nil, errorf("Key name for current_setting needs to be neither NULL nor empty")
	}
	t, v, err := p.Cat.Setting(&p.Set, name)
	if err != nil {
		return nil, err
	}
	return &ConstExpr{T: t, V: v}, nil
}

// bindGetVariable binds getvariable('name'): the variable's value when the
// statement was planned, a constant.
func (p *Planner) bindGetVariable(args []Expr) (Expr, error) {
	k, ok := IsConst(args[0])
	if !ok {
		return nil, errorf("getvariable requires a constant input")
	}
	if k.V == nil {
		return &ConstExpr{T: tInt32Null, V: nil}, nil
	}
	name, isStr := k.V.(string)
	if !isStr {
		return nil, errorf("getvariable requires a constant string input")
	}
	v := p.Set.Vars[strings.ToLower(name)]
	if v == nil {
		// DuckDB types an unset variable as INTEGER.
		return &ConstExpr{T: tInt32Null, V: nil}, nil
	}
	return &ConstExpr{T: v.T, V: v.V}, nil
}
