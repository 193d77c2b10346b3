package endpoint

import (
	"encoding/binary"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/leolab/leolab/result"
	"golang.org/x/sys/unix"
)

// oobSize holds one SCM_TIMESTAMPNS control message (a struct timespec).
var oobSize = unix.CmsgSpace(16)

// receive reads the flow's datagrams until the sender's end plus the
// drain (or stop), recording one-way delay from the kernel's receive
// timestamp (SO_TIMESTAMPNS, so the receiver's scheduling delay is not
// counted) and a per-interval series of received IP bytes by receive time.
// It reads in recvmmsg batches on a real-time thread: at 1 Gbit/s a normal
// thread loses the CPU to the real-time sender and pump, and its socket
// buffer overflows.
func (c *CBR) receive(rx *net.UDPConn, epoch time.Time, stop *atomic.Bool, rep *CBRReport) ([]result.Interval, error) {
	restore, _ := lockRealtime(c.KeepOff)
	defer restore()
	rc, err := rx.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("cbr flow %d: receive: %w", c.ID, err)
	}
	fd := -1
	if err := rc.Control(func(f uintptr) { fd = int(f) }); err != nil {
		return nil, fmt.Errorf("cbr flow %d: receive: %w", c.ID, err)
	}
	// The fd stays open: rx is closed only after receive returns.
	sock := &rawUDP{fd: fd}
	b := newRBatch(cbrBatch, 1<<16, oobSize)
	r := cbrReceiver{c: c, epochNs: epoch.UnixNano(), rep: rep}
	until := c.Start + c.Duration + c.Drain
	for !stop.Load() {
		left := until - time.Since(epoch)
		if left <= 0 {
			break
		}
		if !sock.wait(min(left, maxIdle)) {
			continue
		}
		for n := b.recv(fd); n > 0; n = b.recv(fd) {
			for i := range n {
				r.add(b.msg(i))
			}
		}
	}
	return r.series, nil
}

// cbrReceiver accounts received datagrams.
type cbrReceiver struct {
	c       *CBR
	epochNs int64
	rep     *CBRReport
	series  []result.Interval
}

func (r *cbrReceiver) add(data, oob []byte) {
	if len(data) < cbrHeader {
		return
	}
	rxNs, ok := rxTimestamp(oob)
	if !ok {
		rxNs = time.Now().UnixNano()
	}
	txNs := int64(binary.BigEndian.Uint64(data[8:16]))
	rep := r.rep
	rep.OWD.Add(time.Duration(rxNs - txNs))
	rep.Received++
	size := int64(len(data) + udpIPHeaders)
	rep.RecvBytes += size
	t := time.Duration(rxNs - r.epochNs)
	if r.c.Trace && (r.c.TraceLimit <= 0 || len(rep.Trace) < r.c.TraceLimit) {
		rep.Trace = append(rep.Trace, PacketTimes{
			Seq:  int64(binary.BigEndian.Uint64(data[0:8])),
			Sent: time.Duration(txNs - r.epochNs), Recv: t,
		})
	}
	k := int(t / r.c.Interval)
	for len(r.series) <= k {
		r.series = append(r.series, result.Interval{T: (time.Duration(len(r.series)+1) * r.c.Interval).Seconds()})
	}
	if k >= 0 {
		r.series[k].Bytes += size
	}
}

// rxTimestamp finds the SCM_TIMESTAMPNS message (socket(7)) in oob.
func rxTimestamp(oob []byte) (int64, bool) {
	for len(oob) >= unix.SizeofCmsghdr {
		// struct cmsghdr on 64-bit Linux: size_t len; int level; int type.
		l := int(binary.NativeEndian.Uint64(oob[0:8]))
		level := int32(binary.NativeEndian.Uint32(oob[8:12]))
		typ := int32(binary.NativeEndian.Uint32(oob[12:16]))
		if l < unix.SizeofCmsghdr || l > len(oob) {
			return 0, false
		}
		if level == unix.SOL_SOCKET && typ == unix.SCM_TIMESTAMPNS && l >= unix.CmsgLen(16) {
			d := oob[unix.CmsgLen(0):]
			sec := int64(binary.NativeEndian.Uint64(d[0:8]))
			nsec := int64(binary.NativeEndian.Uint64(d[8:16]))
			return sec*1e9 + nsec, true
		}
		oob = oob[min(unix.CmsgSpace(l-unix.CmsgLen(0)), len(oob)):]
	}
	return 0, false
}

// summarise fills the result.Flow of a CBR flow.
func (c *CBR) summarise(rep *CBRReport, series []result.Interval) {
	f := &rep.Flow
	f.ID = c.ID
	f.CCA = "cbr"
	f.StartS = c.Start.Seconds()
	f.EndS = (c.Start + c.Duration).Seconds()
	f.SentPackets = rep.Sent
	f.LostPackets = max(0, rep.Sent-rep.Received)
	f.BytesAcked = rep.RecvBytes
	f.ThroughputMbps = float64(rep.RecvBytes) * 8 / c.Duration.Seconds() / 1e6
	f.MeanOWDMs = ms(rep.OWD.Mean())
	f.P95OWDMs = ms(rep.OWD.Quantile(0.95))
	f.Intervals = series
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
