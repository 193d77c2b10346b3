package probe

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/result"
)

// Sample is one probe packet.
type Sample struct {
	Sent time.Duration // since the trace's epoch
	OWD  time.Duration // one-way delay; meaningless when Lost
	Lost bool
}

// Recv is the packet's arrival time since the epoch.
func (s Sample) Recv() time.Duration { return s.Sent + s.OWD }

// Trace is one probe flow.
type Trace struct {
	// Epoch is the wall-clock instant of t = 0; zero when unknown (then no
	// UTC position of the reconfigurations can be given).
	Epoch time.Time
	// Size is the packet size in bytes (IP); 0 when unknown (then no rates).
	Size int
	// Spacing is the sender's interval between packets (0: unknown).
	Spacing time.Duration
	// Samples are in send order.
	Samples []Sample
}

// FromResult returns the probe trace of flow id of a result: its per-packet
// records (a cbr flow run with record: true). Packets still in flight at
// the end of the run are left out.
func FromResult(res *result.Result, id int) (*Trace, error) {
	for _, f := range res.Flows {
		if f.ID != id {
			continue
		}
		if len(f.Packets) == 0 {
			return nil, fmt.Errorf("flow %d (%s) has no per-packet records: run a cbr flow with record: true", id, f.CCA)
		}
		tr := &Trace{Samples: make([]Sample, 0, len(f.Packets))}
		if res.EpochUTC != "" {
			t, err := time.Parse(time.RFC3339Nano, res.EpochUTC)
			if err != nil {
				return nil, fmt.Errorf("epoch_utc %q: %w", res.EpochUTC, err)
			}
			tr.Epoch = t
		}
		delivered := int64(0)
		for i, p := range f.Packets {
			if err := checkRecord(p.SentS, p.OWDMs); err != nil {
				return nil, fmt.Errorf("flow %d: packets[%d]: %w", id, i, err)
			}
			s := Sample{Sent: seconds(p.SentS)}
			switch {
			case p.OWDMs < 0:
				s.Lost = true
			case p.OWDMs == 0:
				continue // in flight at the end
			default:
				s.OWD = time.Duration(p.OWDMs * float64(time.Millisecond))
				delivered++
			}
			tr.Samples = append(tr.Samples, s)
		}
		if delivered > 0 && f.BytesAcked > 0 {
			tr.Size = int((f.BytesAcked + delivered/2) / delivered)
		}
		sortBySent(tr.Samples)
		tr.Spacing = medianSpacing(tr.Samples)
		return tr, nil
	}
	ids := make([]string, len(res.Flows))
	for i, f := range res.Flows {
		ids[i] = strconv.Itoa(f.ID)
	}
	return nil, fmt.Errorf("no flow %d (flows: %s)", id, strings.Join(ids, ", "))
}

// ProbeFlows lists the ids of a result's flows that carry per-packet records.
func ProbeFlows(res *result.Result) []int {
	var ids []int
	for _, f := range res.Flows {
		if len(f.Packets) > 0 {
			ids = append(ids, f.ID)
		}
	}
	return ids
}

// ReadDelaySeries reads a one-way-delay series: one delay in milliseconds
// per line, one line per step (LeoReplayer's delay traces: step 10 ms).
// Blank lines and lines starting with # are skipped; a line that is not a
// non-negative number is an error naming the file and line.
func ReadDelaySeries(name string, r io.Reader, step time.Duration) (*Trace, error) {
	if step <= 0 || step > maxStep {
		return nil, fmt.Errorf("%s: step %v: want (0, %v]", name, step, maxStep)
	}
	tr := &Trace{Spacing: step}
	sc := bufio.NewScanner(r)
	line, k := 0, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || !(v >= 0 && v <= maxOWDMs) { // NaN too
			return nil, fmt.Errorf("%s:%d: %q is not a one-way delay in ms (want a number in [0, %g])", name, line, text, float64(maxOWDMs))
		}
		sent := time.Duration(k) * step
		if sent > maxSent {
			return nil, fmt.Errorf("%s:%d: the series is longer than %v at --step %v", name, line, maxSent, step)
		}
		tr.Samples = append(tr.Samples, Sample{Sent: sent, OWD: time.Duration(v * float64(time.Millisecond))})
		k++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(tr.Samples) == 0 {
		return nil, fmt.Errorf("%s: no delays", name)
	}
	return tr, nil
}

// Bounds on what a trace's records may say, so that no value read from
// outside bytes overflows a time.Duration or sizes an allocation: a
// record's send time within a run's longest duration, a delay within the
// longest delay any input may give (internal/quantity), and a delay
// series' step at most a minute (LeoReplayer's is 10 ms).
const (
	maxSent  = quantity.MaxDuration
	maxOWDMs = float64(quantity.MaxDelay / time.Millisecond)
	maxStep  = time.Minute
)

// checkRecord checks one per-packet record of a result: sent_s a time in
// [0, maxSent], owd_ms a number at most maxOWDMs (negative: lost, 0: in
// flight). One absurd value made the prober panic on a slice's length.
func checkRecord(sentS, owdMs float64) error {
	if !(sentS >= 0 && sentS <= maxSent.Seconds()) { // NaN too
		return fmt.Errorf("sent_s %g: want a time in [0, %g] s", sentS, maxSent.Seconds())
	}
	if math.IsNaN(owdMs) || owdMs > maxOWDMs {
		return fmt.Errorf("owd_ms %g: want at most %g ms (negative: lost)", owdMs, maxOWDMs)
	}
	return nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func sortBySent(s []Sample) {
	sort.SliceStable(s, func(i, j int) bool { return s[i].Sent < s[j].Sent })
}

// medianSpacing is the median time between consecutive sends.
func medianSpacing(s []Sample) time.Duration {
	if len(s) < 2 {
		return 0
	}
	d := make([]time.Duration, 0, len(s)-1)
	for i := 1; i < len(s); i++ {
		d = append(d, s[i].Sent-s[i-1].Sent)
	}
	return quantile(d, 0.5)
}

// quantile returns the q-quantile of d (nearest rank); d is reordered.
func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	k := int(q * float64(len(d)-1))
	return d[k]
}
