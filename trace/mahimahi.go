package trace

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/leolab/leolab/internal/quantity"
)

// Mahimahi's trace constants.
const (
	// OpportunityBytes is what one delivery opportunity carries: Mahimahi's
	// LinkQueue::PACKET_SIZE = 1504 ("default max TUN payload size",
	// src/frontend/link_queue.hh; LeoReplayer keeps it).
	OpportunityBytes = 1504
	// MaxMahimahiBytes bounds a delivery-opportunity file. A line is at
	// least 2 bytes and costs 4 bytes in memory, so memory stays under
	// twice the file; 256 MiB holds ~40 M opportunities of 7-byte lines
	// (about 2.5 h at 60 Mbit/s, 10 min at 1 Gbit/s).
	MaxMahimahiBytes = 256 << 20
)

// maxMS is the latest timestamp accepted: a run's longest duration, in ms.
const maxMS = uint64(quantity.MaxDuration / time.Millisecond)

// Opportunities is a Mahimahi delivery-opportunity trace.
type Opportunities struct {
	File string
	// MS holds the opportunities' milliseconds since the trace's start,
	// non-decreasing, the last > 0 (it is also the loop period).
	MS []uint32
}

// Period is the trace's length: Mahimahi shifts every time by the last
// timestamp when it starts the trace again.
func (o *Opportunities) Period() time.Duration {
	return time.Duration(o.MS[len(o.MS)-1]) * time.Millisecond
}

// MeanRateBps is the trace's capacity over one period, bits/s, with
// bytesPer bytes per opportunity.
func (o *Opportunities) MeanRateBps(bytesPer int) float64 {
	return float64(len(o.MS)) * float64(bytesPer) * 8 / o.Period().Seconds()
}

// ReadMahimahiFile reads a delivery-opportunity trace from file.
func ReadMahimahiFile(file string) (*Opportunities, error) {
	f, err := openLimited(file, MaxMahimahiBytes, "Mahimahi trace")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadMahimahi(file, io.LimitReader(f, MaxMahimahiBytes)) // a file growing while read
}

// ReadMahimahi reads a delivery-opportunity trace with Mahimahi's rules:
// one integer millisecond per line, each >= the one before, at least one
// line, the last > 0. file names it in errors.
func ReadMahimahi(file string, r io.Reader) (*Opportunities, error) {
	o := &Opportunities{File: file}
	var prev uint64
	err := forEachLine(file, r, func(line int, text []byte) error {
		fail := func(format string, args ...any) error {
			return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
		}
		if len(text) == 0 {
			return fail("empty line (allowed: one integer millisecond per line, as Mahimahi's mm-link reads)")
		}
		ms, err := strconv.ParseUint(string(text), 10, 64)
		if err != nil {
			return fail("%q is not a millisecond (allowed: an integer in [0, %d], one per line)", text, maxMS)
		}
		if ms > maxMS {
			return fail("%d ms: beyond %d ms (a run's longest duration, %v)", ms, maxMS, quantity.MaxDuration)
		}
		if len(o.MS) > 0 && ms < prev {
			return fail("%d ms after %d ms on line %d: timestamps must be non-decreasing (each line >= the one before)", ms, prev, line-1)
		}
		prev = ms
		o.MS = append(o.MS, uint32(ms))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(o.MS) == 0 {
		return nil, &Error{File: file, Msg: "no timestamps (allowed: one integer millisecond per line, at least one line)"}
	}
	if prev == 0 {
		return nil, &Error{File: file, Line: len(o.MS), Msg: "the trace must last a nonzero time: its last timestamp is 0 ms (it is the loop period)"}
	}
	return o, nil
}

// WriteMahimahi writes opportunities (milliseconds, non-decreasing, the
// last > 0) one per line.
func WriteMahimahi(w io.Writer, ms []uint32) error {
	if len(ms) == 0 || ms[len(ms)-1] == 0 {
		return fmt.Errorf("mahimahi trace: needs at least one opportunity and a last timestamp > 0")
	}
	bw := bufio.NewWriter(w)
	var buf [16]byte
	for i, v := range ms {
		if i > 0 && v < ms[i-1] {
			return fmt.Errorf("mahimahi trace: opportunity %d at %d ms before %d ms", i, v, ms[i-1])
		}
		bw.Write(append(strconv.AppendUint(buf[:0], uint64(v), 10), '\n'))
	}
	return bw.Flush()
}
