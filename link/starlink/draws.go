package starlink

import "github.com/leolab/leolab/link"

// With tdma.keyed_draws, the link's per-packet random processes are each
// keyed apart (link.Draw):
// an arrival's draws are keyed by the frame it arrives before and its
// position among that frame's arrivals, a served packet's by its frame and
// its position in the frame's grant. Two runs of one seed then meet the
// same loss and AQM opportunities frame by frame whatever their senders
// do (common random numbers), so a counterfactual replay's difference is
// its change, not a reshuffled draw; each draw is still uniform and
// independent of the others, so every process keeps its probability.
const (
	procOutage = 1 + iota // outage.arrival_loss at admission
	procAQM               // the AQM's drop test at admission
	procServe             // random_loss of a served packet
)

// draw is the uniform of event pos of process proc in the current frame
// (frameIdx: the next frame to run, which admissions precede and which
// runFrame serves); without tdma.keyed_draws, the stream's next number.
func (l *Link) draw(proc uint64, pos int) float64 {
	if !l.keyed {
		return l.rng.Float64()
	}
	return link.Draw(l.key, proc, l.frameIdx, pos)
}
