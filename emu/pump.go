package emu

import (
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/result"
	"golang.org/x/sys/unix"
)

// Pump timing.
const (
	// DefaultSpin is how long before a release the pump stops sleeping and
	// spins, polling the TUNs: the wake-up latency of timerfd+epoll on a
	// loaded 2-core host is tens of µs. Longer spins were tried: 100 µs
	// (or an eighth of the gap between releases) lowers the delay error of
	// slow CBR (p50 ~65 → ~40 µs at 25 Mbit/s), but on the Starlink
	// downlink the spinning pump then needs hundreds of forced rests a
	// second (rest.go) for no better release error (p99 220–350 µs, 240–260
	// with 10 µs on the same host).
	DefaultSpin = 10 * time.Microsecond
	// readBatch bounds the packets read from one TUN per loop iteration, so
	// one busy direction cannot delay the other's releases.
	readBatch = 64
	// errSpan is the linear range of the release-error histogram.
	errSpan = 20 * time.Millisecond
	// maxSleepMs caps one epoll_wait (ms). The pump sleeps in a raw
	// syscall, keeping its P so that it never waits for one on wake-up; the
	// cap bounds how long a stop-the-world GC can wait for it.
	maxSleepMs = 1
)

// way is one direction: packets read from in, through stage, written to out.
type way struct {
	name    string
	in, out int
	stage   link.Stage
	// inServer, outServer: in or out is the server's TUN (for the Tap).
	inServer, outServer bool

	delivered, deliveredPkts int64
	intervalBytes            int64
	drops, lastDrops         [link.NumDropCauses]int64 // lastDrops: at the last sample
	marked, writeErrors      int64
	readErrors               int64
	samples                  []result.LinkSample
	// hops meter the links of a topology's series (hops.go), nil
	// otherwise.
	hops []*hopMeter
}

// pump moves packets between the two TUNs in real time. Everything but stop
// is owned by the pump's goroutine while it runs.
type pump struct {
	epoch      time.Time
	spin       time.Duration
	interval   time.Duration
	nextSample time.Duration
	sampleFrom time.Duration // time 0 of the samples' labels (Config.SampleFrom)

	pool packet.Pool
	slab slab
	cls  *classifier
	ways [2]way
	tap  Tap

	epfd, timerfd, stopfd int
	events                [4]unix.EpollEvent

	relErr     *endpoint.Hist
	packets    int64
	badPackets int64
	stalls     int64
	gaps       gapMeter
	realtime   bool // the pump thread runs SCHED_FIFO
	restB      restBudget

	stop atomic.Bool
}

func (pu *pump) now() time.Duration { return time.Since(pu.epoch) }

// dropFunc returns the DropFunc for way w: count and recycle.
func (pu *pump) dropFunc(w *way) link.DropFunc {
	return func(_ time.Duration, p *packet.Packet, cause link.DropCause) {
		if cause < link.NumDropCauses {
			w.drops[cause]++
		}
		pu.free(p)
	}
}

func (pu *pump) free(p *packet.Packet) {
	pu.slab.put(uint32(p.TxID))
	pu.pool.Put(p)
}

// run is the pump loop; it returns when stop is set.
func (pu *pump) run() {
	pu.restB.running = pu.now() // the epoch may precede the pump's start
	for !pu.stop.Load() {
		now := pu.now()
		pu.gaps.loop(now)
		if pu.realtime {
			if pu.restB.ran(now); pu.restB.due() {
				pu.rest()
				now = pu.now()
			}
		}
		for i := range pu.ways {
			pu.release(&pu.ways[i], now)
		}
		got := 0
		for i := range pu.ways {
			got += pu.ingest(&pu.ways[i])
		}
		if now >= pu.nextSample {
			pu.sample(now)
		}
		if got > 0 {
			continue
		}
		next := min(pu.ways[0].stage.NextEvent(), pu.ways[1].stage.NextEvent())
		t := pu.now()
		if next-t <= pu.spin {
			continue // spin: keep polling the TUNs until the release
		}
		pu.sleep(min(next-t-pu.spin, pu.nextSample-t))
	}
}

// release writes out every packet of w whose time has come. The stage is
// stepped at each event's own due time (not at now), so a late poll does
// not shift hand-overs inside a chain; the lateness of the write itself is
// the release error.
func (pu *pump) release(w *way, now time.Duration) {
	for {
		due := w.stage.NextEvent()
		if due > now {
			return
		}
		p := w.stage.Dequeue(due)
		if p == nil {
			if w.stage.NextEvent() <= due {
				pu.stalls++ // a stage that announces an event and makes no progress
				return
			}
			continue
		}
		pu.write(w, p, due)
	}
}

func (pu *pump) write(w *way, p *packet.Packet, due time.Duration) {
	b := pu.slab.bytes(p)
	if p.CE && markCE(b) {
		w.marked++
	}
	// Raw syscall: the fd is non-blocking, so the scheduler need not know.
	_, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(w.out), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	now := pu.now()
	pu.relErr.Add(now - due)
	if e != 0 {
		w.writeErrors++
	} else {
		if pu.tap != nil {
			pu.tap.Packet(w.outServer, now, b)
		}
		w.delivered += int64(len(b))
		w.intervalBytes += int64(len(b))
		w.deliveredPkts++
	}
	pu.free(p)
}

// ingest reads up to readBatch packets from w's TUN and enqueues each at
// the time of its read(2) call: the latest instant known to precede its
// taking, and after its arrival unless it arrived during the call (the
// loop's earlier time would let a packet written after the loop read the
// clock enter the link before it was sent).
func (pu *pump) ingest(w *way) int {
	n := 0
	for ; n < readBatch; n++ {
		i := pu.slab.get()
		buf := pu.slab.bufs[i]
		now := pu.now()
		m, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(w.in), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
		if e != 0 || m == 0 {
			pu.slab.put(i)
			if e != 0 && e != unix.EAGAIN && e != unix.EINTR {
				w.readErrors++
			}
			return n
		}
		pu.slab.n[i] = int(m)
		p := pu.pool.Get()
		p.TxID = uint64(i)
		if !pu.cls.classify(buf[:m], p) {
			pu.badPackets++
			pu.free(p)
			continue
		}
		pu.packets++
		p.SentAt = now
		if pu.tap != nil {
			pu.tap.Packet(w.inServer, now, buf[:m])
		}
		w.stage.Enqueue(now, p)
	}
	return n
}

// sample appends one link sample per direction and schedules the next.
func (pu *pump) sample(now time.Duration) {
	for i := range pu.ways {
		w := &pu.ways[i]
		s := result.LinkSample{T: (pu.nextSample - pu.sampleFrom).Seconds(), DeliveredBytes: w.intervalBytes}
		if o, ok := w.stage.(link.Observable); ok {
			sn := o.Snapshot(now)
			s.AllocMbps = sn.RateBps / 1e6
			s.QueuePkts = sn.QueuePackets
		}
		var d [link.NumDropCauses]int64 // this interval's drops
		for c := range d {
			d[c] = w.drops[c] - w.lastDrops[c]
		}
		s.Drops = netsim.DropCounts(&d)
		w.lastDrops = w.drops
		w.samples = append(w.samples, s)
		w.intervalBytes = 0
		for _, m := range w.hops {
			m.sample(now, s.T)
		}
	}
	for pu.nextSample <= now {
		pu.nextSample += pu.interval
	}
}

// sleep blocks until a TUN is readable, the stop event fires, or d passes.
func (pu *pump) sleep(d time.Duration) {
	d = max(d, time.Microsecond)
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	if err := unix.TimerfdSettime(pu.timerfd, 0, &spec, nil); err != nil {
		return // cannot sleep precisely: spin instead
	}
	// Raw: the pump keeps its P across the sleep (see maxSleepMs).
	pu.gaps.sleep(min(d, maxSleepMs*time.Millisecond))
	from := pu.now()
	_, _, _ = unix.RawSyscall6(unix.SYS_EPOLL_WAIT, uintptr(pu.epfd),
		uintptr(unsafe.Pointer(&pu.events[0])), uintptr(len(pu.events)), maxSleepMs, 0, 0)
	now := pu.now()
	pu.restB.ran(from)
	pu.restB.slept(now, now-from)
}
