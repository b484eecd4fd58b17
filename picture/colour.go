package picture

import (
	"fmt"
	"math"
)

// Palette maps a cell's key to a fill colour and a text colour. A ramp
// spreads keys 0..Max over its colours (offsets: near offsets get near
// colours, so a layout's order shows at a glance); a cycle takes key mod
// its length (banks, threads, lanes: neighbours get distinct colours).
type Palette struct {
	Ramp bool
	Max  int64    // the largest key, for a ramp
	Fill []string // "#rrggbb"
	Ink  []string // the text colour readable on each fill
}

// Colour is the index in p of the colour of key; -1 keys (nothing there) have none.
func (p Palette) Colour(key int64) int {
	n := int64(len(p.Fill))
	if key < 0 || n == 0 {
		return -1
	}
	if p.Ramp {
		if p.Max <= 0 {
			return 0
		}
		return int(min(key, p.Max) * (n - 1) / p.Max)
	}
	return int(key % n)
}

type rgb struct{ r, g, b float64 }

func (c rgb) hex() string {
	to := func(v float64) int { return int(math.Round(math.Max(0, math.Min(1, v)) * 255)) }
	return fmt.Sprintf("#%02x%02x%02x", to(c.r), to(c.g), to(c.b))
}

// luminance is the WCAG relative luminance of c.
func (c rgb) luminance() float64 {
	lin := func(v float64) float64 {
		if v <= 0.03928 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// ink is black or white, whichever contrasts more with the fill.
func ink(fill rgb) string {
	l := fill.luminance()
	// Contrast ratios (L1+0.05)/(L2+0.05) against white and against black.
	if (1.05)/(l+0.05) > (l+0.05)/0.05 {
		return "#ffffff"
	}
	return "#000000"
}

// rampStops run from a deep blue through pale yellow to a deep red: a
// diverging ramp whose middle is light, so both ends stay tellable apart.
var rampStops = []rgb{
	{0.17, 0.31, 0.65},
	{0.45, 0.68, 0.82},
	{0.88, 0.95, 0.80},
	{0.99, 0.87, 0.55},
	{0.96, 0.55, 0.33},
	{0.70, 0.13, 0.15},
}

// rampSteps is the number of colours of a ramp.
const rampSteps = 256

// NewRamp is the ramp palette for keys 0..max.
func NewRamp(max int64) Palette {
	p := Palette{Ramp: true, Max: max, Fill: make([]string, rampSteps), Ink: make([]string, rampSteps)}
	for i := range rampSteps {
		t := float64(i) / (rampSteps - 1) * float64(len(rampStops)-1)
		j := min(int(t), len(rampStops)-2)
		f := t - float64(j)
		a, b := rampStops[j], rampStops[j+1]
		c := rgb{a.r + (b.r-a.r)*f, a.g + (b.g-a.g)*f, a.b + (b.b-a.b)*f}
		p.Fill[i], p.Ink[i] = c.hex(), ink(c)
	}
	return p
}

// NewCycle is a cycle of n distinct colours: hues a golden angle apart,
// lightness alternating between two levels so that neighbours differ in
// both; the first eight are light, as CuTe's print_latex thread colours are.
func NewCycle(n int) Palette {
	p := Palette{Fill: make([]string, n), Ink: make([]string, n)}
	for i := range n {
		hue := math.Mod(float64(i)*137.508+220, 360)
		light := 0.80
		if i%2 == 1 {
			light = 0.66
		}
		c := hsl(hue, 0.65, light)
		p.Fill[i], p.Ink[i] = c.hex(), ink(c)
	}
	return p
}

// hsl converts hue (degrees), saturation and lightness (0..1) to RGB.
func hsl(h, s, l float64) rgb {
	c := (1 - math.Abs(2*l-1)) * s
	hp := h / 60
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g = c, x
	case hp < 2:
		r, g = x, c
	case hp < 3:
		g, b = c, x
	case hp < 4:
		g, b = x, c
	case hp < 5:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := l - c/2
	return rgb{r + m, g + m, b + m}
}
