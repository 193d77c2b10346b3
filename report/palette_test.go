package report

import (
	"image/color"
	"testing"
)

func TestCCAColorsDistinct(t *testing.T) {
	// The nine CCAs of seed 000 plus reno and a learned policy must all be
	// told apart: no two share a colour, and every pair differs clearly
	// (sum of channel differences > 60 of 765).
	names := []string{"cubic", "hybla", "vegas", "leocc", "copa", "pcc", "bbr1", "bbr2", "bbr3", "reno", "learned"}
	for i, a := range names {
		for _, b := range names[i+1:] {
			ca, cb := CCAColor(a), CCAColor(b)
			d := abs(int(ca.R)-int(cb.R)) + abs(int(ca.G)-int(cb.G)) + abs(int(ca.B)-int(cb.B))
			if d <= 60 {
				t.Errorf("%s %v and %s %v are too close (%d)", a, ca, b, cb, d)
			}
		}
	}
}

func TestCCAColorAliases(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"bbr", "bbr3"}, {"BBR-v3", "bbr3"}, {"bbrv2", "bbr2"}, {"BBR_v1", "bbr1"},
		{"ccp", "copa"}, {"NewReno", "reno"}, {" Cubic ", "cubic"}, {"LeoCC", "leocc"},
	} {
		if CCAColor(tc.a) != CCAColor(tc.b) {
			t.Errorf("%q and %q get different colours", tc.a, tc.b)
		}
	}
	if CanonicalCCA("BBR-v3") != "bbr3" {
		t.Errorf("CanonicalCCA(BBR-v3) = %q", CanonicalCCA("BBR-v3"))
	}
}

func TestCCAColorStableForUnknown(t *testing.T) {
	a, b := CCAColor("my-new-cca"), CCAColor("my-new-cca")
	if a != b || a.A != 0xff {
		t.Errorf("unknown name: %v then %v, want one opaque colour", a, b)
	}
	if CCAColor("cubic") != (color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}) {
		t.Errorf("cubic is %v, want tab10 blue", CCAColor("cubic"))
	}
}

func TestDashesAndGlyphsCycle(t *testing.T) {
	if dashes(0) != nil || dashes(4) != nil {
		t.Error("pattern 0 (and 4) must be solid")
	}
	for i := 1; i < 4; i++ {
		if len(dashes(i)) == 0 {
			t.Errorf("pattern %d is solid", i)
		}
	}
	if glyph(0) == glyph(1) || glyph(1) == glyph(2) || glyph(4) != glyph(0) {
		t.Error("glyph shapes do not cycle through four distinct shapes")
	}
}
