package starlink

import (
	"testing"
	"time"

	"github.com/leolab/leolab/link"
)

// arrivalKey places an arrival the way the link keys its draws: the frame
// window it falls in (frames run at k·frame, before an arrival at the same
// instant) and its position among that window's arrivals.
type arrivalKey struct {
	window int64
	pos    int
}

// outageFates runs one CBR source of rate through the uplink of p for d
// and returns, for each arrival inside an outage, whether the outage lost
// it.
func outageFates(t *testing.T, rateBps float64, d time.Duration, keyed bool) map[arrivalKey]bool {
	t.Helper()
	p := mustProfile(t, "sydney", map[string]any{"uplink.outage.arrival_loss": 0.5, "tdma.keyed_draws": keyed})
	b := newBench(t, "uplink", p, 0)
	src := b.cbr(0, rateBps, 200, 0, d)
	var sent []time.Duration // by seq
	src.onSend = func(now time.Duration) { sent = append(sent, now) }
	b.loop.RunUntil(d + time.Second)
	lost := map[uint64]bool{}
	for _, r := range b.dropped {
		if r.cause == link.DropOutage {
			lost[r.seq] = true
		}
	}
	sched := b.l.Schedule()
	fates := map[arrivalKey]bool{}
	last, pos := int64(-1), 0
	for seq, at := range sent {
		w := int64(at / p.TDMA.Frame)
		if w != last {
			last, pos = w, 0
		}
		from := sched.SlotStart(at)
		if from > 0 && at-from < p.Uplink.Outage.Duration {
			fates[arrivalKey{w, pos}] = lost[uint64(seq)]
		}
		pos++
	}
	return fates
}

// Common random numbers: two runs of one seed whose senders differ (10
// and 16 Mbit/s of 200-byte packets, about 8 and 13 arrivals per 1.333 ms
// frame) lose exactly the same arrivals of each outage where both have
// one, at outage.arrival_loss 0.5 with tdma.keyed_draws. With one
// sequential stream the second
// run's draws would shift from the first frame whose count differs, and
// about half of the shared positions (2p(1−p)) would disagree.
func TestOutageLossIsCommonAcrossSenders(t *testing.T) {
	const d = 32 * time.Second // boundaries at :12 and :27 from epoch 0
	a := outageFates(t, 10e6, d, true)
	b := outageFates(t, 16e6, d, true)
	shared, disagree, lostA := 0, 0, 0
	for k, fa := range a {
		if fa {
			lostA++
		}
		if fb, ok := b[k]; ok {
			shared++
			if fa != fb {
				disagree++
			}
		}
	}
	// 2 outages × 51 frames × ~8 arrivals ≈ 800 shared positions.
	if shared < 500 {
		t.Fatalf("%d arrivals inside outages shared by both runs, want ≥ 500 (the test sees no outage)", shared)
	}
	if disagree != 0 {
		t.Errorf("%d of %d shared outage arrivals met different fates", disagree, shared)
	}
	// Each draw is still Bernoulli(0.5): ~800 trials have sd 0.018 of
	// share, so 0.4–0.6 is more than 5 sd.
	if f := float64(lostA) / float64(len(a)); f < 0.4 || f > 0.6 {
		t.Errorf("outage lost %.3f of its arrivals, want 0.5 ± 0.1", f)
	}
	t.Logf("%d shared outage arrivals, %d disagree; run A lost %d of %d", shared, disagree, lostA, len(a))
}

// Without tdma.keyed_draws the same two runs disagree on about half of
// the shared outage arrivals (2p(1−p) = 0.5; at least a quarter here).
func TestOutageLossSequentialDiffers(t *testing.T) {
	const d = 32 * time.Second
	a := outageFates(t, 10e6, d, false)
	b := outageFates(t, 16e6, d, false)
	shared, disagree := 0, 0
	for k, fa := range a {
		if fb, ok := b[k]; ok {
			shared++
			if fa != fb {
				disagree++
			}
		}
	}
	if shared < 500 || disagree < shared/4 {
		t.Errorf("sequential draws: %d of %d shared outage arrivals disagree, want ≥ a quarter", disagree, shared)
	}
}
