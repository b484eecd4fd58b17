package picture

import (
	"bytes"
	"context"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// findChromium is a headless-capable Chromium: $CUTE_LSP_CHROMIUM, else
// the first of the usual names on PATH.
func findChromium() (string, bool) {
	if p := os.Getenv("CUTE_LSP_CHROMIUM"); p != "" {
		return p, true
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// pointerScript moves the mouse onto cell (k, r, c) of the page's canvas
// and, when click is set, clicks it: real events at the cell's screen
// position, found with elementFromPoint so that the canvas must be there.
// It runs as soon as the page's own script has (layout is computed on
// demand), so it waits on no timer.
func pointerScript(k, r, c int, click bool) string {
	events := `["mousemove"]`
	if click {
		events = `["mousemove","mousedown","mouseup","click"]`
	}
	return `<script>
(() => {
  const [x, y] = window.cutePicture.cellCenter(` + strconv.Itoa(k) + `,` + strconv.Itoa(r) + `,` + strconv.Itoa(c) + `);
  const el = document.elementFromPoint(x, y);
  for (const type of ` + events + `) el.dispatchEvent(new MouseEvent(type, {clientX: x, clientY: y, bubbles: true, buttons: 0}));
  document.body.setAttribute("data-target", el.id);
})();
</script>
</body>`
}

// TestBrowser loads pages in headless Chromium, points at a cell and reads
// the side panel: the coordinate, offset, bank, thread and owners the page
// shows must be the algebra's. It skips without Chromium, except under
// CI=1 (make test installs Debian's chromium).
func TestBrowser(t *testing.T) {
	bin, ok := findChromium()
	if !ok {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set and no Chromium was found (chromium, chromium-browser, google-chrome, headless_shell or $CUTE_LSP_CHROMIUM): make test installs Debian's chromium")
		}
		t.Skip("no Chromium found (chromium, chromium-browser, google-chrome, headless_shell or $CUTE_LSP_CHROMIUM): the HTML page's browser test is skipped; apt-get install chromium to run it")
	}
	value := func(src string) layout.Value {
		v, err := analysis.EvalString(src)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	build := func(f func() (*Grid, error)) *Grid {
		g, err := f()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	bankV := value("bank_conflicts((8,64):(64,1), (32,8):(1,32), 16)").(analysis.BankValue)
	cases := []struct {
		name    string
		grid    *Grid
		k, r, c int
		click   bool
		want    map[string]string // side-panel cell id -> text
	}{
		{"tv-hover", build(func() (*Grid, error) {
			return FromTV(*(value("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))").(*layout.Layout)), 16, 8)
		}), 0, 9, 2, false,
			map[string]string{"i-cell": "row 9, column 2", "i-coord": "(9,2)", "i-thread": "T5 V2", "pinned": ""}},
		{"swizzle-click", build(func() (*Grid, error) { return FromLayout(value("Sw<3,4,3> o 0 o (8,64):(64,1)")) }), 0, 7, 16, true,
			map[string]string{"i-cell": "row 7, column 16", "i-coord": "(7,16)", "i-index": "135", "i-offset": "480", "pinned": "pinned (Esc to unpin)"}},
		{"rank3", build(func() (*Grid, error) { return FromLayout(value("((2,2),3,2):((1,6),2,12)")) }), 1, 3, 2, true,
			map[string]string{"i-coord": "((1,1),2,1)", "i-offset": "23", "i-index": "23"}},
		{"bank", build(func() (*Grid, error) { return FromAccess(bankV.Access, bankV.Report, -1) }), 0, 3, 2, true,
			map[string]string{"i-offset": "194", "i-bank": "b1 (word 97, 16-bit elements); lanes 19 of the phase: conflict, 8 words in this bank"}},
		{"tiled-mma", build(func() (*Grid, error) {
			return FromTiledMMA(value(`make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((1,1,1)))`).(tiled.TiledMMA))
		}), 0, 9, 34 + 2, true, // C (m 9, n 2): the single atom's T5 V2, as in tv-hover
			map[string]string{"i-cell": "C (M x N): m 9, n 2", "i-coord": "(9,2)", "i-index": "41 (m + 16*n in the tile)", "i-thread": "T5 V2"}},
		{"tirx", build(func() (*Grid, error) {
			return FromTIRx(value("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid").(tirx.Layout), nil)
		}), 0, 7, 15, true,
			map[string]string{"i-coord": "(7,15)", "i-index": "127", "i-owner": "{laneid:31, warpid:6, m:1} | {laneid:31, warpid:10, m:1}"}},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each Chromium mostly waits: several at once cost little more than one
			var b bytes.Buffer
			if err := c.grid.WriteHTML(&b); err != nil {
				t.Fatal(err)
			}
			page := strings.Replace(b.String(), "</body>", pointerScript(c.k, c.r, c.c, c.click), 1)
			path := filepath.Join(dir, c.name+".html")
			if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			dom := dumpDOM(t, bin, path, filepath.Join(dir, c.name+"-profile"))
			if !strings.Contains(dom, `data-target="canvas"`) {
				t.Fatalf("the pointer did not land on the canvas (page script failed?)\n%.2000s", dom)
			}
			for id, want := range c.want {
				if got := elementText(dom, id); got != want {
					t.Errorf("#%s = %q, want %q", id, got, want)
				}
			}
		})
	}
}

// dumpDOM runs headless Chromium on a page and returns the DOM after its scripts ran.
func dumpDOM(t *testing.T, bin, page, profile string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+profile,
		"--window-size=1200,800", "--virtual-time-budget=5000", "--dump-dom", "file://"+page)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, lastLines(stderr.String(), 20))
	}
	return string(out)
}

// elementText is the text of the element with the given id (no nested tags).
func elementText(dom, id string) string {
	re := regexp.MustCompile(`id="` + regexp.QuoteMeta(id) + `"[^>]*>([^<]*)<`)
	m := re.FindStringSubmatch(dom)
	if m == nil {
		return "<missing>"
	}
	return html.UnescapeString(m[1])
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}
