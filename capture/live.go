package capture

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"
)

// Live-capture limits.
const (
	// liveRing is the number of packets the pump can hand over before the
	// writer takes them: ~2.3 MiB, 100 ms of a 1 Gbit/s link's packets
	// (83 k/s of 1500 bytes, each seen twice) while the writer drains it
	// every ms.
	liveRing = 1 << 14
	// drainEvery is how often the writer looks for packets.
	drainEvery = time.Millisecond
)

// record is one packet handed over by the pump.
type record struct {
	at     time.Duration
	wire   int
	n      int
	server bool
	data   [SnapLen]byte
}

// Live captures an emulated run: the pump hands it every packet it reads
// from a TUN or writes to one (emu.Tap), copying at most SnapLen bytes into
// a fixed ring without blocking or allocating; a goroutine writes them to
// server.pcap and client.pcap. When the ring is full the packet is counted
// in Missed, not waited for: the pump's timing comes first.
type Live struct {
	ring       []record
	head, tail atomic.Uint64 // head: next record the pump fills; tail: next the writer takes
	missed     atomic.Int64
	epoch      atomic.Pointer[time.Time]

	server, client *File
	stop           chan struct{}
	done           chan error
}

// NewLive creates server.pcap and client.pcap in dir (made if missing)
// and starts the writer.
func NewLive(dir string) (*Live, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("pcap: %w", err)
	}
	l := &Live{ring: make([]record, liveRing), stop: make(chan struct{}), done: make(chan error, 1)}
	var err error
	if l.server, err = Create(filepath.Join(dir, ServerFile)); err != nil {
		return nil, err
	}
	if l.client, err = Create(filepath.Join(dir, ClientFile)); err != nil {
		l.server.Close()
		return nil, err
	}
	go l.writer()
	return l, nil
}

// Start sets the wall-clock instant of the pump's time 0 (emu.Tap).
func (l *Live) Start(epoch time.Time) { l.epoch.Store(&epoch) }

// Packet hands over one IP packet seen at the server's TUN (server) or the
// client's at time at since the epoch (emu.Tap). It runs on the pump's
// thread: no allocation, no lock, no system call.
func (l *Live) Packet(server bool, at time.Duration, b []byte) {
	h := l.head.Load()
	if h-l.tail.Load() >= uint64(len(l.ring)) {
		l.missed.Add(1)
		return
	}
	r := &l.ring[h%uint64(len(l.ring))]
	r.at, r.wire, r.server = at, len(b), server
	r.n = copy(r.data[:], b)
	l.head.Store(h + 1)
}

// writer drains the ring into the files until Close.
func (l *Live) writer() {
	t := time.NewTicker(drainEvery)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			l.drain()
			l.done <- nil
			return
		case <-t.C:
			l.drain()
		}
	}
}

func (l *Live) drain() {
	var epoch time.Time
	if e := l.epoch.Load(); e != nil {
		epoch = *e
	}
	for t, h := l.tail.Load(), l.head.Load(); t < h; t++ {
		r := &l.ring[t%uint64(len(l.ring))]
		f := l.client
		if r.server {
			f = l.server
		}
		f.Write(epoch.Add(r.at), r.data[:r.n], r.wire)
		l.tail.Store(t + 1)
	}
}

// Close writes what is left and closes the files; it returns the first
// write error.
func (l *Live) Close() error {
	close(l.stop)
	<-l.done
	return errors.Join(l.server.Close(), l.client.Close())
}

// Missed counts the packets the ring had no room for.
func (l *Live) Missed() int64 { return l.missed.Load() }

// Packets returns the packets written to server.pcap and client.pcap.
func (l *Live) Packets() (server, client int64) { return l.server.Packets, l.client.Packets }
