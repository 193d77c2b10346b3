package probe

import "time"

// FlowLoad is one flow's delay and loss over a window, as a competing
// flow saw it.
type FlowLoad struct {
	Packets, Lost int
	LossRate      float64
	// QueueDelay is the median one-way delay above the path's floor.
	QueueDelay time.Duration
}

// Isolation compares a mouse (a light probe within its fair share) with
// an elephant sharing its queue (seed 001 §Flow Queuing, findings 17–19:
// Starlink's flow-aware scheduling keeps the mouse's delay low; on the
// downlink the shared head-drop buffer couples the mouse's loss to the
// elephant's, on the uplink the per-flow AQM keeps it apart).
type Isolation struct {
	Mouse, Elephant FlowLoad
	// DelayRatio is the mouse's queueing delay over the elephant's: near 0
	// isolated, near 1 shared.
	DelayRatio float64
	// DelayIsolated: the mouse waited less than a quarter of the
	// elephant's queueing delay.
	DelayIsolated bool
	// LossCoupled: the mouse lost more than isolationLossMin of its
	// packets, well above an idle path's random loss.
	LossCoupled bool
}

// Isolation verdict thresholds.
const (
	// isolationDelayMax is the delay ratio below which the mouse counts as
	// isolated: a shared FIFO gives 1, DRR a frame or two against tens of
	// milliseconds.
	isolationDelayMax = 0.25
	// isolationLossMin is the mouse loss that counts as coupled: 10× the
	// idle path's random loss (seed 001 finding 24: 0.03 % DL, 0.02 % UL).
	isolationLossMin = 0.003
)

// InferIsolation reads mouse and elephant over the packets sent in
// [from, to); floor is the path's delay without queueing (the mouse's
// least delay before the elephant started).
func InferIsolation(mouse, elephant *Trace, floor, from, to time.Duration) Isolation {
	iso := Isolation{Mouse: flowLoad(mouse, floor, from, to), Elephant: flowLoad(elephant, floor, from, to)}
	if iso.Elephant.QueueDelay > 0 {
		iso.DelayRatio = float64(iso.Mouse.QueueDelay) / float64(iso.Elephant.QueueDelay)
	}
	iso.DelayIsolated = iso.DelayRatio < isolationDelayMax
	iso.LossCoupled = iso.Mouse.LossRate > isolationLossMin
	return iso
}

func flowLoad(tr *Trace, floor, from, to time.Duration) FlowLoad {
	var l FlowLoad
	var q []time.Duration
	for _, x := range tr.Samples {
		if x.Sent < from || x.Sent >= to {
			continue
		}
		l.Packets++
		if x.Lost {
			l.Lost++
			continue
		}
		q = append(q, max(0, x.OWD-floor))
	}
	if l.Packets > 0 {
		l.LossRate = float64(l.Lost) / float64(l.Packets)
	}
	l.QueueDelay = quantile(q, 0.5)
	return l
}
