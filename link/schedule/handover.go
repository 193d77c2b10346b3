package schedule

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"time"
)

// Handovers is a fixed list of reconfiguration instants in run time, the
// cc.Schedule that SaTCP and LeoCC read.
type Handovers struct {
	at []time.Duration // sorted, >= 0
}

// NewHandovers returns the schedule of the instants at (sorted here;
// negative instants, before the run, are left out).
func NewHandovers(at []time.Duration) Handovers {
	out := make([]time.Duration, 0, len(at))
	for _, t := range at {
		if t >= 0 {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return Handovers{at: out}
}

// Next returns the first handover at or after now, or -1 when none is left
// (cc.Schedule).
func (h Handovers) Next(now time.Duration) time.Duration {
	i := sort.Search(len(h.at), func(i int) bool { return h.at[i] >= now })
	if i == len(h.at) {
		return -1
	}
	return h.at[i]
}

// Times returns the instants (read-only).
func (h Handovers) Times() []time.Duration { return h.at }

// Predicted returns the schedule as a predictor that errs by e would give
// it: each instant moves by ±e, e drawn from dist and the sign with
// probability ½ each, from rng. LeoEM's emulator.py does the same with its
// latency_deltas (timing_err_ecdf.dat's sample): random.choice of a
// magnitude times random.choice([1, -1]).
func (h Handovers) Predicted(dist *ECDF, rng *rand.Rand) Handovers {
	out := make([]time.Duration, len(h.at))
	for i, t := range h.at {
		e := dist.Sample(rng.Float64())
		if rng.IntN(2) == 0 {
			e = -e
		}
		out[i] = t + time.Duration(e*float64(time.Second))
	}
	return NewHandovers(out)
}

// ECDF is an empirical distribution: values with their cumulative
// probabilities, both non-decreasing, the last probability 1.
type ECDF struct {
	value, cum []float64
}

// MaxECDFBytes bounds a distribution file: LeoEM's timing_err_ecdf.dat is
// 62 KB (1606 points).
const MaxECDFBytes = 16 << 20

// ReadECDF reads two whitespace-separated columns per line, value and
// cumulative probability (LeoEM's timing_err_ecdf.dat: handover-prediction
// error in seconds). Blank lines and lines starting with # are skipped.
func ReadECDF(file string, r io.Reader) (*ECDF, error) {
	sc := bufio.NewScanner(io.LimitReader(r, MaxECDFBytes+1))
	sc.Buffer(make([]byte, 0, 4096), 4096)
	d := &ECDF{}
	line, read := 0, 0
	fail := func(format string, args ...any) error {
		return &FileError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	for sc.Scan() {
		line++
		read += len(sc.Bytes()) + 1
		if read > MaxECDFBytes {
			return nil, &FileError{File: file, Msg: fmt.Sprintf("larger than %d bytes", MaxECDFBytes)}
		}
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		f := bytes.Fields(text)
		if len(f) != 2 {
			return nil, fail("%d columns, want 2: value and cumulative probability", len(f))
		}
		v, err1 := strconv.ParseFloat(string(f[0]), 64)
		c, err2 := strconv.ParseFloat(string(f[1]), 64)
		switch {
		case err1 != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > MaxPathOWD*100:
			return nil, fail("value %q: want a finite number of seconds, |v| <= %g", f[0], MaxPathOWD*100)
		case err2 != nil || !(c >= 0 && c <= 1):
			return nil, fail("cumulative probability %q: want a number in [0, 1]", f[1])
		case len(d.value) > 0 && (v < d.value[len(d.value)-1] || c < d.cum[len(d.cum)-1]):
			return nil, fail("%s %s after %g %g: values and probabilities must not decrease", f[0], f[1], d.value[len(d.value)-1], d.cum[len(d.cum)-1])
		}
		d.value = append(d.value, v)
		d.cum = append(d.cum, c)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &FileError{File: file, Line: line + 1, Msg: "line longer than 4096 bytes"}
		}
		return nil, &FileError{File: file, Msg: err.Error()}
	}
	if len(d.cum) == 0 {
		return nil, &FileError{File: file, Msg: "no points (want lines `value cumulative_probability`)"}
	}
	if last := d.cum[len(d.cum)-1]; last != 1 {
		return nil, &FileError{File: file, Line: line, Msg: fmt.Sprintf("last cumulative probability %g, want 1", last)}
	}
	return d, nil
}

// Sample is the inverse CDF at u in [0, 1): linear between the points
// around u, as for a continuous variable.
func (d *ECDF) Sample(u float64) float64 {
	i := sort.SearchFloat64s(d.cum, u) // first cum >= u
	if i == 0 {
		return d.value[0]
	}
	if i == len(d.cum) {
		return d.value[len(d.value)-1]
	}
	c0, c1 := d.cum[i-1], d.cum[i]
	if c1 == c0 {
		return d.value[i]
	}
	return d.value[i-1] + (d.value[i]-d.value[i-1])*(u-c0)/(c1-c0)
}

// Mean is the distribution's mean under the same interpolation.
func (d *ECDF) Mean() float64 {
	m := d.value[0] * d.cum[0]
	for i := 1; i < len(d.cum); i++ {
		m += (d.value[i] + d.value[i-1]) / 2 * (d.cum[i] - d.cum[i-1])
	}
	return m
}
