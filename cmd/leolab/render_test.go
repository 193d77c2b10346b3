package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/reporttest"
	"github.com/leolab/leolab/report"
)

// Headless-Chromium rendering of the reproduce reports (issue 20,
// acceptance 1): each report test calls checkRendered on the report it
// wrote, so no report is generated twice.

// chromiumNames are the names Debian and Google give the browser.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// chromiumTimeout bounds one page load: a 2 MB report dumps in ~4 s here.
const chromiumTimeout = 2 * time.Minute

var (
	// attrURL matches every attribute that makes a browser fetch something.
	attrURL = regexp.MustCompile(`(?i)\s(src|href|xlink:href|action|poster|srcset|data)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)`)
	// cssURL matches CSS fetches.
	cssURL  = regexp.MustCompile(`(?i)(url\s*\(|@import)`)
	svgSize = regexp.MustCompile(`<svg[^>]*\swidth="([0-9.]+)pt"[^>]*\sheight="([0-9.]+)pt"`)
	// whiteRect is a full-canvas white background: the figure's, then the
	// axes' (report.Figure.draw paints the legend strip between the two).
	whiteRect = regexp.MustCompile(`<path d="M0,0L[0-9.]+,0L[0-9.]+,[0-9.]+L0,[0-9.]+Z" style="fill:#FFFFFF"`)
	textRE    = regexp.MustCompile(`(?s)<text[^>]*font-size:([0-9.]+)px[^>]*>([^<]*)</text>`)
	yLabelRE  = regexp.MustCompile(`(?s)<g transform="rotate\(90\)">\s*<text[^>]*>([^<]+)</text>`)
	pathD     = regexp.MustCompile(`<path d="([^"]*)" style="([^"]*)"`)
	pngHref   = regexp.MustCompile(`href="([^"/]+\.png)"`)
)

// checkRendered opens dir/report.html in headless Chromium without network
// access and checks, in the DOM after parsing, that every figure (at least
// min) has an SVG of positive size with a title, a y-axis label, tick
// labels, a legend and drawn data, and that every linked PNG decodes to a
// non-blank image. It first checks that the page references nothing
// outside dir. Skips (as a subtest) when Chromium is not installed.
func checkRendered(t *testing.T, dir string, min int) {
	t.Helper()
	t.Run("chromium", func(t *testing.T) {
		page := filepath.Join(dir, "report.html")
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range localOnly(dir, string(src)) {
			t.Error(e)
		}
		bin := ""
		for _, n := range chromiumNames {
			if p, err := exec.LookPath(n); err == nil {
				bin = p
				break
			}
		}
		if bin == "" {
			t.Skip("chromium is not installed (apt-get install -y chromium; .ci/run installs it)")
		}
		dom := dumpDOM(t, bin, page)
		figs := reporttest.Figures(dom)
		if want := strings.Count(string(src), "<figure>"); len(figs) != want || len(figs) < min {
			t.Fatalf("the DOM has %d figures; the page %d, want at least %d", len(figs), want, min)
		}
		for i, f := range figs {
			if err := checkFigureDOM(f); err != "" {
				t.Errorf("figure %d: %s", i, err)
			}
		}
		pngs := pngHref.FindAllStringSubmatch(dom, -1)
		if len(pngs) != len(figs) {
			t.Errorf("%d PNG links for %d figures", len(pngs), len(figs))
		}
		for _, m := range pngs {
			if err := checkPNG(filepath.Join(dir, m[1])); err != "" {
				t.Errorf("%s: %s", m[1], err)
			}
		}
	})
}

// localOnly lists every reference a browser would fetch from outside
// dir: every src/href must be a relative name of a file in dir or a
// fragment, and the page has no CSS fetches and no scripts.
func localOnly(dir, html string) []string {
	var errs []string
	for _, m := range attrURL.FindAllStringSubmatch(html, -1) {
		v := strings.Trim(m[2], `"'`)
		if strings.HasPrefix(v, "#") {
			continue
		}
		if strings.Contains(v, ":") || strings.HasPrefix(v, "/") || strings.Contains(v, "..") {
			errs = append(errs, fmt.Sprintf("%s=%q: the report must reference only files beside it", m[1], v))
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, v)); err != nil {
			errs = append(errs, fmt.Sprintf("%s=%q: %v", m[1], v, err))
		}
	}
	if m := cssURL.FindString(html); m != "" {
		errs = append(errs, fmt.Sprintf("the page's CSS fetches (%q)", m))
	}
	if strings.Contains(strings.ToLower(html), "<script") {
		errs = append(errs, "the page has a script")
	}
	return errs
}

// dumpDOM loads page with every network path closed: a proxy on the
// discard port, no name resolution, no background services.
func dumpDOM(t *testing.T, bin, page string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
	defer cancel()
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--disable-gpu", "--no-sandbox",
		"--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--no-first-run", "--user-data-dir="+filepath.Join(home, "profile"), "--dump-dom", "file://"+page)
	cmd.Env = append(os.Environ(), "HOME="+home)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%.2000s", bin, err, errOut.String())
	}
	if out.Len() == 0 {
		t.Fatalf("%s printed no DOM\n%.2000s", bin, errOut.String())
	}
	return out.String()
}

// checkFigureDOM checks one figure's SVG as the browser parsed it; "" if
// it is complete.
func checkFigureDOM(body string) string {
	sz := svgSize.FindStringSubmatch(body)
	if sz == nil {
		return "no svg with a width and height"
	}
	if w, _ := strconv.ParseFloat(sz[1], 64); w <= 0 {
		return "svg width " + sz[1]
	}
	if h, _ := strconv.ParseFloat(sz[2], 64); h <= 0 {
		return "svg height " + sz[2]
	}
	rects := whiteRect.FindAllStringIndex(body, -1)
	if len(rects) < 2 {
		return "no axes background after the figure's"
	}
	legend, axes := body[rects[0][1]:rects[1][0]], body[rects[1][1]:]
	entries := 0
	for _, m := range textRE.FindAllStringSubmatch(legend, -1) {
		if strings.TrimSpace(m[2]) != "" {
			entries++
		}
	}
	if entries == 0 {
		return "no legend"
	}
	title, ticks := false, 0
	for _, m := range textRE.FindAllStringSubmatch(axes, -1) {
		if strings.TrimSpace(m[2]) == "" {
			continue
		}
		if m[1] == "12" {
			title = true
		} else {
			ticks++
		}
	}
	switch {
	case !title:
		return "no title"
	case ticks < 2:
		return "fewer than two tick labels"
	case yLabelRE.FindStringSubmatch(axes) == nil:
		return "no y-axis label"
	}
	for _, m := range pathD.FindAllStringSubmatch(axes, -1) {
		if m[2] == "fill:#FFFFFF" {
			continue
		}
		if strings.Count(m[1], "L") >= 4 || strings.Contains(m[1], "A") {
			return ""
		}
	}
	return "no data drawn (no polyline, polygon or marker in the axes)"
}

// PNG size bounds: a DefaultWidth figure at report.PNGDPI is 1063 px wide.
const (
	minPNGWidth, minPNGHeight = 600, 300
	// minInk is the share of non-white sampled pixels below which an
	// image is blank (axes, labels and data cover more than 1 %).
	minInk = 0.01
)

// checkPNG decodes a figure's PNG and checks that it is large and inked.
func checkPNG(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return "decode: " + err.Error()
	}
	b := img.Bounds()
	if b.Dx() < minPNGWidth || b.Dy() < minPNGHeight {
		return "size " + strconv.Itoa(b.Dx()) + "×" + strconv.Itoa(b.Dy())
	}
	ink, n := 0, 0
	colours := map[[3]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			n++
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				ink++
			}
			if len(colours) < 16 {
				colours[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			}
		}
	}
	if float64(ink)/float64(n) < minInk {
		return "blank: " + strconv.FormatFloat(100*float64(ink)/float64(n), 'f', 2, 64) + " % ink"
	}
	if len(colours) < 3 {
		return "fewer than three colours"
	}
	return ""
}

// The render checks can fail: on a small report they pass in Chromium, and
// each piece taken out of it (legend, y label, data, a blank PNG, an
// external reference) is reported.
func TestRenderChecksCatchBrokenReports(t *testing.T) {
	dir := t.TempDir()
	f, err := report.CategoryBars("fair-share score", "S_i / S*", []string{"bbr", "cubic"},
		[]report.BarSeries{{Name: "simulated", Values: []float64{1.2, 0.8}}, {Name: "real", Values: []float64{1.4, 0.6}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Caption = "a caption"
	if err := report.Write(dir, &report.Report{Title: "t", Sections: []report.Section{{Title: "s", Figures: []*report.Figure{f}}}}); err != nil {
		t.Fatal(err)
	}
	checkRendered(t, dir, 1)

	src, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	figs := reporttest.Figures(string(src))
	if len(figs) == 0 {
		t.Fatal("report.html has no figure")
	}
	body := figs[0]
	if e := checkFigureDOM(body); e != "" {
		t.Fatalf("the intact figure: %s", e)
	}
	rects := whiteRect.FindAllStringIndex(body, -1)
	noLegend := body[:rects[0][1]] + "/>" + body[rects[1][0]:]
	noYLabel := yLabelRE.ReplaceAllString(body, "")
	noData := regexp.MustCompile(`<path d="M[^"]*L[^"]*L[^"]*L[^"]*L[^"]*" style="fill:#(1F77B4|FF7F0E)"`).ReplaceAllString(body[rects[1][1]:], "")
	for name, c := range map[string]struct{ body, want string }{
		"legend":  {noLegend, "no legend"},
		"y label": {noYLabel, "no y-axis label"},
		"data":    {body[:rects[1][1]] + noData, "no data drawn"},
	} {
		if got := checkFigureDOM(c.body); !strings.Contains(got, c.want) {
			t.Errorf("without the %s: %q, want %q", name, got, c.want)
		}
	}

	blank := image.NewRGBA(image.Rect(0, 0, 1000, 600))
	draw.Draw(blank, blank.Bounds(), image.White, image.Point{}, draw.Src)
	var b bytes.Buffer
	if err := png.Encode(&b, blank); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "blank.png"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := checkPNG(filepath.Join(dir, "blank.png")); !strings.HasPrefix(got, "blank") {
		t.Errorf("a white PNG: %q, want blank", got)
	}
	if got := checkPNG(filepath.Join(dir, f.Name+".png")); got != "" {
		t.Errorf("the figure's PNG: %s", got)
	}

	for _, page := range []string{`<img src="https://example.org/x.png">`, `<link rel="stylesheet" href="//cdn.example/x.css">`,
		`<p style="background: url(x.png)">`, `<a href="missing.csv">`, `<script>1</script>`} {
		if errs := localOnly(dir, page); len(errs) == 0 {
			t.Errorf("%s: not reported", page)
		}
	}
	if errs := localOnly(dir, string(src)); len(errs) > 0 {
		t.Errorf("the written report: %v", errs)
	}
}
