package trace

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/leolab/leolab/internal/quantity"
)

const (
	// DelayInterval is LeoReplayer's delay-trace step: its example runs
	// mm-delay with a 10 ms interval (leoreplayer/replayer/example/Cubic,
	// and ../shared/data/leoreplayer-example: 11,999 lines for 120 s).
	DelayInterval = 10 * time.Millisecond
	// MaxDelayBytes bounds a delay-trace file: a line is at least 2 bytes
	// and costs 8 in memory; 64 MiB is a week of 10 ms lines.
	MaxDelayBytes = 64 << 20
)

// Delays is a LeoReplayer delay trace: the one-way delay of packets
// entering during each Interval, looping at the end.
type Delays struct {
	File     string
	Interval time.Duration
	D        []time.Duration
}

// At returns the delay of a packet entering at t since the trace's start
// (delay_queue.cc: index (t / interval) mod n). The trace is a step
// function: a line's delay holds for its whole interval, with no
// interpolation towards the next line, and every interval has one (a
// delay trace has no gaps: line i is interval i). LeoReplayer reads its
// clock in whole milliseconds (timestamp.cc, raw_timestamp), so its packet
// entering at 12.7 ms leaves at 12 ms + delay; ours leaves at 12.7 ms +
// delay, the trace's delay exactly.
func (d *Delays) At(t time.Duration) time.Duration {
	return d.D[(t/d.Interval)%time.Duration(len(d.D))]
}

// ReadDelayFile reads a delay trace of the given interval from file.
func ReadDelayFile(file string, interval time.Duration) (*Delays, error) {
	f, err := openLimited(file, MaxDelayBytes, "delay trace")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadDelay(file, io.LimitReader(f, MaxDelayBytes), interval) // a file growing while read
}

// ReadDelay reads one delay in milliseconds per line (LeoReplayer writes
// integers; decimals are accepted too), each in [0, quantity.MaxDelay].
func ReadDelay(file string, r io.Reader, interval time.Duration) (*Delays, error) {
	if interval <= 0 || interval > time.Hour {
		return nil, fmt.Errorf("%s: delay interval %v: must be in (0, 1h]", file, interval)
	}
	d := &Delays{File: file, Interval: interval}
	maxMS := float64(quantity.MaxDelay / time.Millisecond)
	err := forEachLine(file, r, func(line int, text []byte) error {
		fail := func(format string, args ...any) error {
			return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
		}
		if len(text) == 0 {
			return fail("empty line (allowed: one delay in ms per line, as LeoReplayer's mm-delay reads)")
		}
		v, err := strconv.ParseFloat(string(text), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return fail("%q is not a delay (allowed: a number of milliseconds in [0, %g], one per line)", text, maxMS)
		}
		if v < 0 || v > maxMS {
			return fail("%g ms: allowed delays are in [0, %g] ms", v, maxMS)
		}
		d.D = append(d.D, time.Duration(math.Round(v*float64(time.Millisecond))))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(d.D) == 0 {
		return nil, &Error{File: file, Msg: "no delays (allowed: one delay in ms per line, at least one line)"}
	}
	return d, nil
}

// WriteDelay writes one delay per line in whole milliseconds (rounded), the
// form LeoReplayer's reader (std::stoi) takes.
func WriteDelay(w io.Writer, d []time.Duration) error {
	bw := bufio.NewWriter(w)
	var buf [24]byte
	for _, v := range d {
		if v < 0 {
			return fmt.Errorf("delay trace: negative delay %v", v)
		}
		ms := (v + time.Millisecond/2) / time.Millisecond
		bw.Write(append(strconv.AppendInt(buf[:0], int64(ms), 10), '\n'))
	}
	return bw.Flush()
}
