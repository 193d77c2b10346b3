package field

import (
	"net"
	"sync/atomic"
	"time"

	"github.com/leolab/leolab/endpoint"
)

// receiver runs endpoint.ReceiveCBR in the background until finish: the
// receiving side of either direction, which ends when the control
// connection says the sender is done (plus a drain), not on a clock that
// may be another host's.
type receiver struct {
	stop atomic.Bool
	done chan struct{}
	rep  *endpoint.CBRReport
	err  error
}

// startReceiver starts receiving flow on conn, times relative to epoch.
func startReceiver(conn *net.UDPConn, epoch time.Time, flow endpoint.CBR) *receiver {
	// The receiver ends on stop; its own bound (Start + Duration + Drain)
	// is only a backstop against a peer that vanished.
	flow.Drain = maxDuration
	r := &receiver{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.rep, r.err = endpoint.ReceiveCBR(conn, epoch, flow, &r.stop)
	}()
	return r
}

// finish stops the receiver and waits until it has let go of its socket.
// It may be called more than once (a deferred call on an early return).
func (r *receiver) finish() (*endpoint.CBRReport, error) {
	r.stop.Store(true)
	<-r.done
	return r.rep, r.err
}

// newSentMsg is the sending side's report: what SendCBR sent (rep may be
// nil on error) on which epoch.
func newSentMsg(epoch time.Time, rep *endpoint.CBRReport, err error) sentMsg {
	sm := sentMsg{EpochUnixNs: epoch.UnixNano()}
	if rep != nil {
		sm.Sent, sm.SendLateP99N = rep.Sent, int64(rep.SendLate.Quantile(0.99))
	}
	if err != nil {
		sm.Error = err.Error()
	}
	return sm
}
