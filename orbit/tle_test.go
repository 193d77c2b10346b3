package orbit

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestOrbitTLEParse(t *testing.T) {
	tle, err := ParseTLE(issLine1, issLine2)
	if err != nil {
		t.Fatal(err)
	}
	if tle.SatNum != 25544 || tle.IntlDesignator != "98067A" || tle.Classification != 'U' {
		t.Errorf("ids: %+v", tle)
	}
	if tle.BStar != -0.11606e-4 || tle.NDot != -0.00002182 || tle.Eccentricity != 0.0006703 {
		t.Errorf("bstar %v ndot %v ecc %v", tle.BStar, tle.NDot, tle.Eccentricity)
	}
	if tle.MeanMotion != 15.72125391 || tle.RevNumber != 56353 || tle.ElementNumber != 292 {
		t.Errorf("mean motion %v rev %v element %v", tle.MeanMotion, tle.RevNumber, tle.ElementNumber)
	}
	// Day 264.51782528 of 2008 is 20 September, 12:25:40.104 UTC.
	want := time.Date(2008, 9, 20, 12, 25, 40, 104192000, time.UTC)
	if d := tle.Epoch.Sub(want); d < -time.Microsecond || d > time.Microsecond {
		t.Errorf("epoch %v, want %v", tle.Epoch, want)
	}
}

func TestOrbitTLEErrors(t *testing.T) {
	replace := func(s string, col int, c byte) string { b := []byte(s); b[col-1] = c; return string(b) }
	cases := []struct {
		name         string
		l1, l2       string
		line, column int
		field        string
	}{
		{"checksum 1", replace(issLine1, 69, '8'), issLine2, 1, 69, "checksum"},
		{"checksum 2", issLine1, replace(issLine2, 69, '0'), 2, 69, "checksum"},
		{"short", issLine1[:60], issLine2, 1, 61, "length"},
		{"line number", issLine1, "3" + issLine2[1:], 2, 1, "line number"},
		// Keep the checksum right: swap a digit for a letter (both count
		// 0 in the sum when the digit is 0).
		{"inclination", issLine1, fixSum(replace(issLine2, 12, 'x')), 2, 9, "inclination"},
		{"bstar", fixSum(replace(issLine1, 56, 'x')), issLine2, 1, 54, "bstar"},
		{"satnum mismatch", issLine1, fixSum(replace(issLine2, 7, '5')), 2, 3, "catalogue number"},
	}
	for _, c := range cases {
		_, err := ParseTLE(c.l1, c.l2)
		var te *TLEError
		if !errors.As(err, &te) {
			t.Errorf("%s: err %v, want a *TLEError", c.name, err)
			continue
		}
		if te.Line != c.line || te.Column != c.column || te.Field != c.field {
			t.Errorf("%s: %v, want line %d column %d (%s)", c.name, err, c.line, c.column, c.field)
		}
	}
}

// fixSum rewrites column 69 so the line's checksum holds.
func fixSum(l string) string {
	sum := 0
	for i := 0; i < 68; i++ {
		switch c := l[i]; {
		case c >= '0' && c <= '9':
			sum += int(c - '0')
		case c == '-':
			sum++
		}
	}
	return l[:68] + string(rune('0'+sum%10)) + l[69:]
}

func TestOrbitReadTLEs(t *testing.T) {
	in := "# comment\nISS (ZARYA)\n" + issLine1 + "\n" + issLine2 + "\n\n" + issLine1 + "\n" + issLine2 + "\n"
	got, err := ReadTLEs(strings.NewReader(in), "x.tle")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "ISS (ZARYA)" || got[1].Name != "" {
		t.Errorf("got %d sets, names %q", len(got), []string{got[0].Name})
	}
	bad := "ISS\n" + issLine1 + "\n" + issLine2[:68] + "1\n"
	_, err = ReadTLEs(strings.NewReader(bad), "bad.tle")
	if err == nil || !strings.HasPrefix(err.Error(), "bad.tle:3: tle line 2 column 69 (checksum)") {
		t.Errorf("err = %v, want bad.tle:3: tle line 2 column 69 (checksum)...", err)
	}
	if _, err := ReadTLEs(strings.NewReader(issLine1+"\n"), "half.tle"); err == nil {
		t.Error("a lone line 1 was accepted")
	}
}

func FuzzOrbitParseTLE(f *testing.F) {
	f.Add(issLine1, issLine2)
	for _, c := range deepSets {
		f.Add(c.line1, c.line2)
	}
	f.Fuzz(func(t *testing.T, l1, l2 string) {
		tle, err := ParseTLE(l1, l2)
		if err != nil {
			return
		}
		s, err := NewSGP4(tle)
		if err != nil {
			return
		}
		for _, ts := range []float64{-1e5, 1440, 1e6} {
			_, _, _ = s.Propagate(ts)
		}
	})
}

func TestOrbitReadTLEsLimit(t *testing.T) {
	set := issLine1 + "\n" + issLine2 + "\n"
	if tles, err := ReadTLEs(strings.NewReader(strings.Repeat(set, 3)), "three.tle"); err != nil || len(tles) != 3 {
		t.Fatalf("3 sets: %d, %v", len(tles), err)
	}
	_, err := ReadTLEs(strings.NewReader(strings.Repeat(set, MaxTLEs+1)), "many.tle")
	if want := "many.tle:200001: more than 100000 element sets"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v, want it to contain %q", err, want)
	}
}
