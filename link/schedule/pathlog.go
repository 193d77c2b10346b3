package schedule

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/leolab/leolab/internal/fileerr"
)

// LeoEM's precomputed path logs (XuyangCaoUCSD/LeoEM precomputed_paths/,
// read by emulation_stage/emulator.py): one line per second ("cycle"),
//
//	cycle$[node ids]$node count$[per-hop one-way delays, s]$total one-way delay, s
//
// or "cycle$NULL" when no route exists that second (LeoEM then takes the
// path's first link down for the second). The node list starts at the
// source (-1) and ends at the destination (-2); there is one delay per hop,
// one fewer than nodes.
const (
	// LeoEMStep is the time one line covers: emulator.py's frame_length,
	// 1 s, after which it re-sets the link delays.
	LeoEMStep = time.Second
	// MaxPathFileBytes bounds a path file before it is read: the SD→NY
	// logs of one orbital period are 2.2–2.8 MB; 64 MiB holds a day of a
	// 40-hop path.
	MaxPathFileBytes = 64 << 20
	// maxPathLine bounds one line: 1 MiB is ~25 000 hops.
	maxPathLine = 1 << 20
	// MaxPathOWD bounds a line's total one-way delay: a LEO path's is tens
	// of ms (21–33 ms on SD→NY); 10 s is absurd on any orbit below GEO's
	// 120 ms, so a larger value is a unit error.
	MaxPathOWD = 10.0
	// sumTolerance is how far a line's total may be from the sum of its
	// hop delays, s (LeoEM writes the sum itself: they agree exactly).
	sumTolerance = 1e-6
)

// PathLog is a path file read into per-second one-way delays, outages and
// route changes. Index i covers file time [i·Step, (i+1)·Step).
type PathLog struct {
	File string
	Step time.Duration
	// OWD is each second's total one-way delay in seconds (for a NULL
	// second, the last known delay, unused since the path is down).
	OWD []float64
	// Down marks the seconds without a route.
	Down []bool
	// Handover marks the seconds whose route differs from the previous
	// second's: another node list, or a route again after a NULL second
	// (emulator.py's rule; a NULL second itself is not one).
	Handover []bool
	// Interruption is how long the path is down at the start of each
	// second by LeoEM's handover model (emulator.py
	// simulate_dish_gateway_sat_handover, its formula from IEEE document
	// 9014090): when the first satellite changes, the dish's link is down
	// for 3 × (the old first hop's delay + the new one's), and likewise
	// at the far end for the last hop, the two in parallel; after a NULL
	// second, 3 × the new hop's delay. A change of intermediate nodes
	// only takes a link down and up at once (0 here). Capped at Step.
	Interruption []time.Duration
}

// FileError is a problem in a path or distribution file.
type FileError = fileerr.Error

// pathFormat is what an error says a line must look like.
const pathFormat = "a line must be `cycle$[node ids]$node count$[hop delays s]$total delay s` or `cycle$NULL`"

// ReadLeoEM reads a LeoEM path log; file names it in errors. It reads at
// most MaxPathFileBytes and allocates in proportion to what it read.
func ReadLeoEM(file string, r io.Reader) (*PathLog, error) {
	sc := bufio.NewScanner(io.LimitReader(r, MaxPathFileBytes+1))
	sc.Buffer(make([]byte, 0, 64<<10), maxPathLine)
	pl := &PathLog{File: file, Step: LeoEMStep}
	var (
		prev       route   // the last second's route
		nodes      []int64 // reused for the next line's node list
		prevDown   = true
		lastCycle  int64
		line, read int
		lastOWD    float64
	)
	fail := func(format string, args ...any) error {
		return &FileError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	for sc.Scan() {
		line++
		read += len(sc.Bytes()) + 1
		if read > MaxPathFileBytes {
			return nil, &FileError{File: file, Msg: fmt.Sprintf("larger than %d bytes (64 MiB)", MaxPathFileBytes)}
		}
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		f := bytes.Split(text, []byte{'$'})
		cycle, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return nil, fail("cycle %q is not an integer (%s)", f[0], pathFormat)
		}
		if len(pl.OWD) > 0 && cycle != lastCycle+1 {
			return nil, fail("cycle %d after %d: cycles must be consecutive, one line per second", cycle, lastCycle)
		}
		lastCycle = cycle
		if len(f) == 2 && string(f[1]) == "NULL" {
			pl.OWD = append(pl.OWD, lastOWD)
			pl.Down = append(pl.Down, true)
			pl.Handover = append(pl.Handover, false)
			pl.Interruption = append(pl.Interruption, 0)
			prevDown = true
			continue
		}
		if len(f) != 5 {
			return nil, fail("%d fields separated by $, want 5 (%s)", len(f), pathFormat)
		}
		cur, msg := parseRoute(f, nodes)
		if msg != "" {
			return nil, fail("%s", msg)
		}
		var cut time.Duration
		if len(pl.OWD) > 0 {
			cut = interruption(prev, cur, prevDown, pl.Step)
		}
		pl.OWD = append(pl.OWD, cur.total)
		pl.Down = append(pl.Down, false)
		pl.Handover = append(pl.Handover, len(pl.OWD) > 1 && (prevDown || !slices.Equal(prev.nodes, cur.nodes)))
		pl.Interruption = append(pl.Interruption, cut)
		prev, nodes = cur, prev.nodes
		prevDown, lastOWD = false, cur.total
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &FileError{File: file, Line: line + 1, Msg: fmt.Sprintf("line longer than %d bytes", maxPathLine)}
		}
		return nil, &FileError{File: file, Msg: err.Error()}
	}
	if len(pl.OWD) == 0 {
		return nil, &FileError{File: file, Msg: "no path lines (" + pathFormat + ")"}
	}
	if i := slices.Index(pl.Down, false); i < 0 {
		return nil, &FileError{File: file, Msg: "every line is NULL: the path never has a route"}
	} else {
		for j := range i { // leading NULL seconds: no delay known yet
			pl.OWD[j] = pl.OWD[i]
		}
	}
	return pl, nil
}

// route is one line's path: its nodes, first and last hop delays and
// total one-way delay, s.
type route struct {
	nodes              []int64
	first, last, total float64
}

// parseRoute checks and reads the four fields after the cycle into a
// route, its node list in buf; a non-empty message says what is wrong.
func parseRoute(f [][]byte, buf []int64) (route, string) {
	var r route
	var err error
	r.nodes, err = parseList(buf[:0], f[1], func(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) })
	if err != nil || len(r.nodes) < 2 {
		return r, fmt.Sprintf("node list %.40q: want [id, id, ...] with at least the two ends (%v)", f[1], err)
	}
	count, err := strconv.ParseInt(string(bytes.TrimSpace(f[2])), 10, 64)
	if err != nil || count != int64(len(r.nodes)) {
		return r, fmt.Sprintf("node count %q: want %d, the length of the node list", f[2], len(r.nodes))
	}
	sum, hops := 0.0, 0
	if _, err := parseList(nil, f[3], func(s string) (struct{}, error) {
		d, err := strconv.ParseFloat(s, 64)
		if err == nil && !(d >= 0 && d <= MaxPathOWD) { // NaN too
			err = fmt.Errorf("%s s out of range [0, %g]", s, MaxPathOWD)
		}
		if hops == 0 {
			r.first = d
		}
		r.last = d
		sum += d
		hops++
		return struct{}{}, err
	}); err != nil || hops != len(r.nodes)-1 {
		return r, fmt.Sprintf("hop delays %.40q: want %d delays in seconds in [0, %g], one per hop (%v)", f[3], len(r.nodes)-1, MaxPathOWD, err)
	}
	r.total, err = strconv.ParseFloat(string(bytes.TrimSpace(f[4])), 64)
	if err != nil || !(r.total > 0 && r.total <= MaxPathOWD) {
		return r, fmt.Sprintf("total one-way delay %q: want seconds in (0, %g]", f[4], MaxPathOWD)
	}
	if math.Abs(r.total-sum) > sumTolerance {
		return r, fmt.Sprintf("total one-way delay %g s is not the sum of the hop delays, %g s", r.total, sum)
	}
	return r, ""
}

// interruption is LeoEM's handover interruption at the start of cur's
// second (PathLog.Interruption), at most step.
func interruption(prev, cur route, prevDown bool, step time.Duration) time.Duration {
	var cut float64 // s
	switch {
	case prevDown:
		cut = 3 * max(cur.first, cur.last)
	default:
		if cur.nodes[1] != prev.nodes[1] {
			cut = 3 * (prev.first + cur.first)
		}
		if cur.nodes[len(cur.nodes)-2] != prev.nodes[len(prev.nodes)-2] {
			cut = max(cut, 3*(prev.last+cur.last))
		}
	}
	return min(step, durationOf(cut))
}

// parseList parses "[a, b, c]" with conv, appending to dst.
func parseList[T any](dst []T, b []byte, conv func(string) (T, error)) ([]T, error) {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return dst, errors.New("not a [..] list")
	}
	b = bytes.TrimSpace(b[1 : len(b)-1])
	if len(b) == 0 {
		return dst, nil
	}
	for len(b) > 0 {
		item := b
		if i := bytes.IndexByte(b, ','); i >= 0 {
			item, b = b[:i], b[i+1:]
			if len(bytes.TrimSpace(b)) == 0 {
				return dst, errors.New("trailing comma")
			}
		} else {
			b = nil
		}
		v, err := conv(string(bytes.TrimSpace(item)))
		if err != nil {
			return dst, err
		}
		dst = append(dst, v)
	}
	return dst, nil
}

// Len is the time the file covers.
func (pl *PathLog) Len() time.Duration { return time.Duration(len(pl.OWD)) * pl.Step }

// Delay returns the one-way delay profile (seconds) and the outages in run
// time, run time 0 being file time offset: second i holds from i·Step −
// offset, a step as LeoEM applies it. The outages are the NULL seconds,
// and with interruptions also the handover interruptions.
func (pl *PathLog) Delay(offset time.Duration, interruptions bool) (Profile, Outages) {
	p := Profile{segs: make([]seg, 0, 64)}
	var spans []Span
	for i, d := range pl.OWD {
		start := time.Duration(i)*pl.Step - offset
		if i == 0 {
			start = math.MinInt64
		}
		down := pl.Step
		if !pl.Down[i] {
			down = 0
			if interruptions {
				down = pl.Interruption[i]
			}
		}
		if down > 0 {
			from := time.Duration(i)*pl.Step - offset
			if n := len(spans); n > 0 && spans[n-1].To >= from {
				spans[n-1].To = from + down
			} else {
				spans = append(spans, Span{From: from, To: from + down})
			}
		}
		if n := len(p.segs); n > 0 && p.segs[n-1].v0 == d {
			continue
		}
		p.segs = append(p.segs, seg{start: start, v0: d})
	}
	return p, NewOutages(spans)
}

// Handovers returns the route changes in run time (file time − offset),
// those at or after run time 0.
func (pl *PathLog) Handovers(offset time.Duration) []time.Duration {
	var out []time.Duration
	for i, h := range pl.Handover {
		if t := time.Duration(i)*pl.Step - offset; h && t >= 0 {
			out = append(out, t)
		}
	}
	return out
}
