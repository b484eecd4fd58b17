package analysis

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZExplore(t *testing.T) {
	type cs struct {
		ID, Lang, Text, Error string
		ExpectedError         bool `json:"expected_error"`
		AllStatic             bool `json:"all_static"`
		Line, Character       int
	}
	var all []cs
	for _, p := range []string{"../testdata/code/cpp_cases.jsonl", "../testdata/code/py_cases.jsonl"} {
		f, _ := os.Open(p)
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var c cs
			json.Unmarshal(sc.Bytes(), &c)
			all = append(all, c)
		}
	}
	hit, miss, wrongPlace, falseErr := 0, 0, 0, 0
	for _, c := range all {
		lang := LangCpp
		if c.Lang == "python" {
			lang = LangPython
		}
		code := ReadCode(lang, []byte(c.Text))
		errs := code.staticErrors()
		lines := strings.Split(c.Text, "\n")
		off := 0
		for i := 0; i < c.Line; i++ {
			off += len(lines[i]) + 1
		}
		off += c.Character
		if !c.ExpectedError {
			if len(errs) > 0 {
				falseErr++
				fmt.Printf("FALSE %s %q: %v\n", c.ID, c.Text, errs[0].err)
			}
			continue
		}
		ok := false
		for _, e := range errs {
			if e.call.Start <= off && off <= e.call.End {
				ok = true
			}
		}
		switch {
		case ok:
			hit++
			if errs[0].err.Condition != c.Error {
				fmt.Printf("COND %s want %q got %v\n", c.ID, c.Error, errs[0].err)
			}
		case len(errs) > 0:
			wrongPlace++
			fmt.Printf("PLACE %s %q: %v\n", c.ID, c.Text, errs[0].err)
		default:
			miss++
			fmt.Printf("MISS %s static=%v %s: %q\n", c.ID, c.AllStatic, c.Error, c.Text)
		}
	}
	fmt.Println("hit", hit, "miss", miss, "wrongPlace", wrongPlace, "false", falseErr)
}
