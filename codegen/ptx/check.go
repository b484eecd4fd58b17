package ptx

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// regUse and regDecl are compiled on first use (a Check), not at the start
// of every command.
var (
	regUse   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%[A-Za-z_][A-Za-z0-9_]*(\.[xyz])?`) })
	regDecl  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\.reg\s+\.[a-z0-9]+\s+(.+);$`) })
	specials = map[string]bool{"%tid": true, "%ntid": true, "%ctaid": true, "%nctaid": true, "%laneid": true, "%warpid": true}
)

// Check is a structural check of a lowered module, short of an assembler:
// brackets balance, every register an entry uses is declared in it exactly
// once, and each instruction line stands in the text with as many registers
// in each brace group as the atom's register arrays have.
func Check(m *Module) error {
	if err := balanced(m.Text); err != nil {
		return fmt.Errorf("%s: %w", m.Name, err)
	}
	for _, entry := range strings.Split(m.Text, ".visible .entry ")[1:] {
		declared := map[string]bool{}
		for _, line := range strings.Split(entry, "\n") {
			line = strings.TrimSpace(line)
			d := regDecl().FindStringSubmatch(line)
			if d == nil {
				continue
			}
			for _, r := range strings.Split(d[1], ",") {
				r = strings.TrimSpace(r)
				if declared[r] {
					return fmt.Errorf("%s: register %s declared twice", m.Name, r)
				}
				declared[r] = true
			}
		}
		for _, line := range strings.Split(entry, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), ".reg") {
				continue
			}
			for _, u := range regUse().FindAllStringSubmatch(line, -1) {
				name := strings.TrimSuffix(u[0], u[1])
				if u[1] != "" && specials[name] {
					continue
				}
				if !declared[u[0]] {
					return fmt.Errorf("%s: register %s used but not declared", m.Name, u[0])
				}
			}
		}
	}
	if len(m.Instructions) != len(m.Vectors) {
		return fmt.Errorf("%s: %d instructions, %d operand shapes", m.Name, len(m.Instructions), len(m.Vectors))
	}
	lines := map[string]int{}
	for _, line := range strings.Split(m.Text, "\n") {
		lines[strings.TrimSpace(line)]++
	}
	for i, instr := range m.Instructions {
		if lines[instr] != 1 {
			return fmt.Errorf("%s: instruction %q stands %d times in the text, want once", m.Name, instr, lines[instr])
		}
		got := braceGroups(instr)
		if fmt.Sprint(got) != fmt.Sprint(m.Vectors[i]) && !(len(got) == 0 && len(m.Vectors[i]) == 0) {
			return fmt.Errorf("%s: instruction %q has brace groups of %v registers, the atom's arrays have %v", m.Name, instr, got, m.Vectors[i])
		}
	}
	return nil
}

func balanced(text string) error {
	var stack []rune
	pairs := map[rune]rune{')': '(', '}': '{', ']': '['}
	for n, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "//") {
			continue
		}
		for _, c := range line {
			switch c {
			case '(', '{', '[':
				stack = append(stack, c)
			case ')', '}', ']':
				if len(stack) == 0 || stack[len(stack)-1] != pairs[c] {
					return fmt.Errorf("line %d: unbalanced %q", n+1, c)
				}
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("%d brackets left open", len(stack))
	}
	return nil
}

// braceGroups is the number of comma-separated items in each {...} of an
// instruction, in order.
func braceGroups(instr string) []int {
	var out []int
	for {
		i := strings.IndexByte(instr, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(instr[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, len(strings.Split(instr[i+1:i+j], ",")))
		instr = instr[i+j+1:]
	}
}
