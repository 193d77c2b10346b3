package endpoint

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/leolab/leolab/result"
	"golang.org/x/sys/unix"
)

// oobSize holds one SCM_TIMESTAMPNS control message (a struct timespec).
var oobSize = unix.CmsgSpace(16)

// receive reads the flow's datagrams until the read deadline, recording
// one-way delay from the kernel's receive timestamp (SO_TIMESTAMPNS, so the
// receiver's scheduling delay is not counted) and a per-interval series of
// received IP bytes by receive time.
func (c *CBR) receive(rx *net.UDPConn, epoch time.Time, rep *CBRReport) ([]result.Interval, error) {
	buf := make([]byte, 65536)
	oob := make([]byte, oobSize)
	epochNs := epoch.UnixNano()
	var series []result.Interval
	for {
		n, oobn, _, _, err := rx.ReadMsgUDPAddrPort(buf, oob)
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return series, nil
			}
			return series, fmt.Errorf("cbr flow %d: receive: %w", c.ID, err)
		}
		if n < cbrHeader {
			continue
		}
		rxNs, ok := rxTimestamp(oob[:oobn])
		if !ok {
			rxNs = time.Now().UnixNano()
		}
		txNs := int64(binary.BigEndian.Uint64(buf[8:16]))
		rep.OWD.Add(time.Duration(rxNs - txNs))
		rep.Received++
		rep.RecvBytes += int64(n + udpIPHeaders)
		t := time.Duration(rxNs - epochNs)
		if c.Trace {
			rep.Trace = append(rep.Trace, PacketTimes{
				Seq:  int64(binary.BigEndian.Uint64(buf[0:8])),
				Sent: time.Duration(txNs - epochNs), Recv: t,
			})
		}
		k := int(t / c.Interval)
		for len(series) <= k {
			series = append(series, result.Interval{T: (time.Duration(len(series)+1) * c.Interval).Seconds()})
		}
		if k >= 0 {
			series[k].Bytes += int64(n + udpIPHeaders)
		}
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
