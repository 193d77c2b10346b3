package trace

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestReadDelayErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"10\n\n", "d.txt:2: empty line"},
		{"10\nabc\n", `d.txt:2: "abc" is not a delay`},
		{"NaN\n", `d.txt:1: "NaN" is not a delay`},
		{"-1\n", "d.txt:1: -1 ms: allowed delays are in [0, 600000] ms"},
		{"", "d.txt: no delays"},
	}
	for _, c := range cases {
		_, err := ReadDelay("d.txt", strings.NewReader(c.in), DelayInterval)
		var te *Error
		if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want prefix %q", c.in, err, c.want)
		}
	}
}

func TestDelayRoundTrip(t *testing.T) {
	d, err := ReadDelay("d", strings.NewReader("12\n10.4\n0\n"), DelayInterval)
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{12 * time.Millisecond, 10400 * time.Microsecond, 0}
	for i := range want {
		if d.D[i] != want[i] {
			t.Fatalf("delays %v, want %v", d.D, want)
		}
	}
	if d.At(25*time.Millisecond) != 0 || d.At(31*time.Millisecond) != 12*time.Millisecond {
		t.Errorf("At: %v %v (want 0, then the loop's first 12 ms)", d.At(25*time.Millisecond), d.At(31*time.Millisecond))
	}
	var buf bytes.Buffer
	if err := WriteDelay(&buf, d.D); err != nil || buf.String() != "12\n10\n0\n" {
		t.Errorf("wrote %q, %v (whole ms, rounded)", buf.String(), err)
	}
}

func FuzzReadDelay(f *testing.F) {
	f.Add([]byte("12\n11\n"))
	f.Add([]byte("1e3\n"))
	f.Add([]byte("-0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadDelay("fuzz", bytes.NewReader(data), DelayInterval)
		if err != nil {
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("error without file and line: %v", err)
			}
			return
		}
		if len(d.D) > len(data)/2+1 {
			t.Fatalf("%d delays from %d bytes", len(d.D), len(data))
		}
		for _, v := range d.D {
			if v < 0 || v > 10*time.Minute {
				t.Fatalf("delay %v accepted", v)
			}
		}
		_ = d.At(time.Hour)
	})
}
