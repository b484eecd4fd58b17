package editors

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// highlightSheet has one line per feature of the sheet language.
const highlightSheet = `# a comment line
tile = (2,(2,2)):(4,(2,1))   // nested
a = (_8,_64):(_64,_1)
c = (4,8):(1@0,3@1@0)
sA = Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
blocks = logical_divide(tile, [32:1;8:1])
assert coalesce((2,4):(1,2)) is 8:1
i = !cute.layout<"(4,8):(1,4)">
t = S[(8,2):(4@laneid,1)] + R[2:4@warpid]
e = (?,?{i64}):(1,?{div=16})
s = "# not a comment"
`

// highlightProbes name the Vim syntax group expected at each place.
var highlightProbes = []probe{
	{1, "# a comment", 0, "cuteComment"},
	{2, "tile", 0, "cuteBinding"},
	{2, "=", 0, "cuteOperator"},
	{2, "(2,", 1, "cuteNumber"},
	{2, "):(", 1, "cuteLayoutColon"},
	{2, "// nested", 3, "cuteComment"},
	{3, "_8", 0, "cuteStatic"},
	{3, "_64)", 0, "cuteStatic"},
	{4, "1@0", 0, "cuteBasis"},
	{4, "3@1@0", 4, "cuteBasis"},
	{5, "Sw<3", 0, "cuteSwizzle"},
	{5, " o ", 1, "cuteCompose"},
	{5, "smem_ptr", 0, "cutePointer"},
	{5, "16b", 0, "cuteNumber"},
	{6, "logical_divide", 0, "cuteFunction"},
	{6, ";", 0, "cuteTilerSeparator"},
	{7, "assert", 0, "cuteAssert"},
	{7, "coalesce", 0, "cuteFunction"},
	{7, " is ", 1, "cuteIs"},
	{8, "!cute", 0, "cuteMlirDialect"},
	{8, `"(4`, 0, "cuteString"},
	{8, `"(4`, 2, "cuteNumber"},
	{9, "S[", 0, "cuteTirx"},
	{9, "4@laneid", 2, "cuteBasis"},
	{9, "R[", 0, "cuteTirx"},
	{10, "?{i64}", 2, "cuteDynamic"},
	{11, "# not", 0, "cuteString"},
}

// TestNeovimSyntax opens a sheet in a headless Neovim with editors/nvim on
// the runtime path (ftdetect, ftplugin, syntax; no server) and checks the
// filetype, the comment options and the syntax group at each probe: the
// colour a sheet has on Neovim 0.7, which shows no semantic tokens.
func TestNeovimSyntax(t *testing.T) {
	nvim := lookEditor(t, "nvim", "neovim")
	dir := t.TempDir()
	sheet := filepath.Join(dir, "tile.cute")
	if err := os.WriteFile(sheet, []byte(highlightSheet), 0o644); err != nil {
		t.Fatal(err)
	}
	var at [][2]int
	for _, p := range highlightProbes {
		at = append(at, [2]int{p.line, p.column(t, highlightSheet)})
	}
	probes, _ := json.Marshal(at)
	var res struct {
		Error                                     *string
		Filetype, Syntax, Commentstring, Comments string
		Groups                                    []string
	}
	runNeovim(t, nvim, dir, "testdata/nvim/syntax.lua", &res, "CUTE_SHEET="+sheet, "CUTE_PROBES="+string(probes))
	if res.Error != nil {
		t.Fatalf("nvim: %s", *res.Error)
	}
	if res.Filetype != "cute" || res.Syntax != "cute" {
		t.Errorf("filetype %q, syntax %q: want cute, cute", res.Filetype, res.Syntax)
	}
	if res.Commentstring != "# %s" || res.Comments != ":#,://" {
		t.Errorf("commentstring %q, comments %q: want \"# %%s\" and \":#,://\"", res.Commentstring, res.Comments)
	}
	if len(res.Groups) != len(highlightProbes) {
		t.Fatalf("%d groups for %d probes", len(res.Groups), len(highlightProbes))
	}
	for i, p := range highlightProbes {
		if res.Groups[i] != p.want {
			t.Errorf("line %d at %q+%d: syntax group %q, want %q", p.line, p.needle, p.skip, res.Groups[i], p.want)
		}
	}
}

// commandsSheet has an error (the unknown function) so that diagnostics
// arrive, and two computed values.
const commandsSheet = "tile = (4,8):(1,4)\nthr = composition(tile, (2,2):(1,2))  # threads\nn = size(tile)\nbad = nosuch(tile)\n"

// TestNeovimCommands drives :CuteTable, :CuteEval and :CuteRestart against
// the built server.
func TestNeovimCommands(t *testing.T) {
	nvim := lookEditor(t, "nvim", "neovim")
	dir := t.TempDir()
	sheet := filepath.Join(dir, "tiles.cute")
	if err := os.WriteFile(sheet, []byte(commandsSheet), 0o644); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Error         *string
		Commands      map[string]bool
		TableFiletype string `json:"table_filetype"`
		Table, Values []string
		Restarted     bool
	}
	runNeovim(t, nvim, dir, "testdata/nvim/commands.lua", &res,
		"CUTE_SHEET="+sheet, "CUTE_LSP_BIN="+serverBinary, "CUTE_TABLE_AT=1,"+itoa(strings.Index(commandsSheet, "(4,8)")))
	if res.Error != nil {
		t.Fatalf("nvim: %s\nresult: %+v", *res.Error, res)
	}
	for _, name := range []string{"CuteTable", "CuteEval", "CuteRestart"} {
		if !res.Commands[name] {
			t.Errorf(":%s is not defined after setup()", name)
		}
	}
	table := strings.Join(res.Table, "\n")
	if res.TableFiletype != "markdown" || !strings.Contains(table, "(4,8):(1,4)") || !containsRow(res.Table, "1", "1 | 5 | 9") {
		t.Errorf(":CuteTable split (filetype %q):\n%s\nwant the hover of (4,8):(1,4) with its offset table", res.TableFiletype, table)
	}
	want := []string{
		"# tiles.cute: 2 values, 1 errors (cute-lsp)",
		"2: thr = composition(tile, (2,2):(1,2))  = " + evalCLI(t, "composition((4,8):(1,4), (2,2):(1,2))"),
		"3: n = size(tile)                        = 32",
	}
	if len(res.Values) != 4 || strings.Join(res.Values[:3], "\n") != strings.Join(want, "\n") || !strings.HasPrefix(res.Values[3], "4: error: ") {
		t.Errorf(":CuteEval split:\n%s\nwant:\n%s\n4: error: ...", strings.Join(res.Values, "\n"), strings.Join(want, "\n"))
	}
	if !res.Restarted {
		t.Error(":CuteRestart: no hover from the new server")
	}
}

// runNeovim runs a Lua script in a headless Neovim with editors/nvim first
// on the runtime path and decodes the JSON it writes to $CUTE_RESULT.
func runNeovim(t *testing.T, nvim, dir, script string, result any, env ...string) {
	t.Helper()
	nvimDir, _ := filepath.Abs("nvim")
	scriptPath, _ := filepath.Abs(script)
	resultPath := filepath.Join(dir, "result.json")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE",
		"--cmd", "set runtimepath^="+nvimDir, "-c", "luafile "+scriptPath)
	cmd.Dir = dir
	cmd.Env = isolatedEnv(dir, append(env, "CUTE_RESULT="+resultPath)...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("nvim did not finish in time; output:\n%s", out)
	}
	if err != nil {
		t.Logf("nvim: %v\n%s", err, out)
	}
	data, err := os.ReadFile(resultPath)
	if err != nil {
		t.Fatalf("no result from nvim (%v); output:\n%s", err, out)
	}
	if err := json.Unmarshal(data, result); err != nil {
		t.Fatalf("result %s: %v", data, err)
	}
}

// containsRow reports whether a table row starting with the row index has
// the given cells (spaces ignored).
func containsRow(lines []string, index, cells string) bool {
	squash := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	for _, l := range lines {
		f := strings.TrimSpace(l)
		if strings.HasPrefix(f, index+" ") && strings.Contains(squash(f), squash(cells)) {
			return true
		}
	}
	return false
}

// evalCLI is what `cute-lsp eval EXPR` prints.
func evalCLI(t *testing.T, expr string) string {
	t.Helper()
	out, err := exec.Command(serverBinary, "eval", expr).Output()
	if err != nil {
		t.Fatalf("cute-lsp eval %q: %v", expr, err)
	}
	return strings.TrimSpace(string(out))
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestNeovimPicture drives :CutePicture against the built server: the page
// of the layout under the cursor is written to a .html file and handed to
// picture_open (a command run with jobstart, as xdg-open is); a value with
// no picture gets the server's reason as an error message.
func TestNeovimPicture(t *testing.T) {
	nvim := lookEditor(t, "nvim", "neovim")
	dir := t.TempDir()
	sheet := filepath.Join(dir, "tiles.cute")
	if err := os.WriteFile(sheet, []byte("tile = (4,8):(1,4)\npair = (2,3)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Error    *string
		Defined  bool
		Path     string
		Page     string
		Messages []struct{ Msg string }
		Refused  []struct {
			Msg   string
			Level int
		}
	}
	runNeovim(t, nvim, dir, "testdata/nvim/picture.lua", &res,
		"CUTE_SHEET="+sheet, "CUTE_LSP_BIN="+serverBinary, "CUTE_PICTURE_COPY="+filepath.Join(dir, "copy.html"))
	if res.Error != nil {
		t.Fatalf("nvim: %s\nresult: %+v", *res.Error, res)
	}
	if !res.Defined {
		t.Error(":CutePicture is not defined after setup()")
	}
	if !strings.HasSuffix(res.Path, ".html") || !strings.HasPrefix(res.Page, "<!DOCTYPE html>") || !strings.Contains(res.Page, `"title":"(4,8):(1,4)"`) {
		t.Errorf("picture at %q: page %.200q, want the page of (4,8):(1,4)", res.Path, res.Page)
	}
	if len(res.Refused) != 1 || res.Refused[0].Level != 4 || !strings.Contains(res.Refused[0].Msg, "no picture of (2,3): (2,3) is not a layout") {
		t.Errorf(":CutePicture on a tuple: messages %+v, want one error with the server's reason", res.Refused)
	}
}
