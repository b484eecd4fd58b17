package ptx

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
)

// putExact writes the non-negative integer x as type t at b, refusing an x
// the type does not hold exactly: a probe's codes must survive the trip.
func putExact(b []byte, t atom.ValType, x int64) error {
	if x < 0 {
		return fmt.Errorf("%d: probes encode non-negative integers", x)
	}
	switch t.Name {
	case "half_t":
		if x >= 2048 {
			return fmt.Errorf("%d is not exact in %s", x, t.Name)
		}
		binary.LittleEndian.PutUint16(b, half(x))
	case "bfloat16_t":
		f := math.Float32bits(float32(x))
		if f&0xffff != 0 || int64(float32(x)) != x {
			return fmt.Errorf("%d is not exact in %s", x, t.Name)
		}
		binary.LittleEndian.PutUint16(b, uint16(f>>16))
	case "tfloat32_t", "float":
		f := math.Float32bits(float32(x))
		if t.Name == "tfloat32_t" && f&0x1fff != 0 || int64(float32(x)) != x {
			return fmt.Errorf("%d is not exact in %s", x, t.Name)
		}
		binary.LittleEndian.PutUint32(b, f)
	case "float_e4m3_t":
		v, err := minifloat(x, 3, 7, 448)
		if err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
		b[0] = v
	case "float_e5m2_t":
		v, err := minifloat(x, 2, 15, 57344)
		if err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
		b[0] = v
	case "int32_t":
		binary.LittleEndian.PutUint32(b, uint32(int32(x)))
	case "int8_t":
		if x > 127 {
			return fmt.Errorf("%d is not exact in %s", x, t.Name)
		}
		b[0] = byte(x)
	case "uint8_t":
		if x > 255 {
			return fmt.Errorf("%d is not exact in %s", x, t.Name)
		}
		b[0] = byte(x)
	default:
		return fmt.Errorf("no probe encoding for %s", t.Name)
	}
	return nil
}

// minifloat encodes x in an 8-bit float of mant mantissa bits and the given
// exponent bias (normal numbers only, which covers every integer from 1 up).
func minifloat(x int64, mant uint, bias int, max int64) (byte, error) {
	if x == 0 {
		return 0, nil
	}
	if x > max {
		return 0, fmt.Errorf("%d is past the largest value %d", x, max)
	}
	e := 0
	for int64(1)<<(e+1) <= x {
		e++
	}
	frac := x - int64(1)<<e // below 2^e
	if e < int(mant) {
		frac <<= int(mant) - e
	} else {
		if frac&(int64(1)<<(e-int(mant))-1) != 0 {
			return 0, fmt.Errorf("%d is not exact with %d mantissa bits", x, mant)
		}
		frac >>= e - int(mant)
	}
	return byte((e+bias)<<mant) | byte(frac), nil
}

// valueAt reads value v of type t (the accumulator types: half_t, float,
// int32_t) from a thread's packed registers as an integer; ok is false for
// a value that is not an integer.
func valueAt(regs []byte, v int, t atom.ValType) (int64, bool) {
	switch t.Name {
	case "half_t":
		f := halfToFloat(binary.LittleEndian.Uint16(regs[2*v:]))
		return int64(f), f == math.Trunc(f) && !math.IsInf(f, 0) && !math.IsNaN(f)
	case "float":
		f := float64(math.Float32frombits(binary.LittleEndian.Uint32(regs[4*v:])))
		return int64(f), f == math.Trunc(f) && !math.IsInf(f, 0) && !math.IsNaN(f)
	case "int32_t":
		return int64(int32(binary.LittleEndian.Uint32(regs[4*v:]))), true
	}
	return 0, false
}

func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e := int(h>>10) & 0x1f
	m := float64(h & 0x3ff)
	switch e {
	case 0:
		return sign * m * math.Pow(2, -24)
	case 31:
		if m == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * (1 + m/1024) * math.Pow(2, float64(e-15))
}
