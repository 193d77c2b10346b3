package endpoint

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// batch is a set of datagrams sent with one sendmmsg(2) on a connected
// socket. Its buffers and headers are allocated once.
type batch struct {
	bufs [][]byte
	iov  []unix.Iovec
	hdrs []unix.Mmsghdr
	n    int
}

func newBatch(max, size int) *batch {
	b := &batch{bufs: make([][]byte, max), iov: make([]unix.Iovec, max), hdrs: make([]unix.Mmsghdr, max)}
	for i := range b.bufs {
		b.bufs[i] = make([]byte, size)
		b.iov[i].Base = &b.bufs[i][0]
		b.iov[i].SetLen(size)
		b.hdrs[i].Hdr.Iov = &b.iov[i]
		b.hdrs[i].Hdr.SetIovlen(1)
	}
	return b
}

func (b *batch) reset() { b.n = 0 }

// next returns the next datagram's buffer; the caller must not take more
// than the batch's size.
func (b *batch) next() []byte {
	b.n++
	return b.bufs[b.n-1]
}

// setLen sets the length of the datagram last taken with next.
func (b *batch) setLen(n int) { b.iov[b.n-1].SetLen(n) }

// sendRaw sends the batch on a non-blocking socket without waiting and
// returns how many datagrams the kernel refused (a full socket buffer).
func (b *batch) sendRaw(fd int) (refused int) {
	for sent := 0; sent < b.n; {
		m, _, e := unix.Syscall6(unix.SYS_SENDMMSG, uintptr(fd), uintptr(unsafe.Pointer(&b.hdrs[sent])), uintptr(b.n-sent), 0, 0, 0)
		switch {
		case e == unix.EINTR:
			continue
		case e != 0:
			return b.n - sent
		case m == 0:
			return b.n - sent
		}
		sent += int(m)
	}
	return 0
}

// flush sends the batch, waiting for room in the socket buffer when the
// kernel takes only part of it.
func (b *batch) flush(rc syscall.RawConn) error {
	sent := 0
	var serr error
	err := rc.Write(func(fd uintptr) bool {
		for sent < b.n {
			m, _, e := unix.Syscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&b.hdrs[sent])), uintptr(b.n-sent), 0, 0, 0)
			switch {
			case e == unix.EAGAIN:
				return false // the poller waits until the socket is writable
			case e == unix.EINTR:
				continue
			case e != 0:
				serr = e
				return true
			}
			sent += int(m)
		}
		return true
	})
	if err != nil {
		return err
	}
	return serr
}

// rbatch receives up to its size of datagrams, each with its control
// messages, in one recvmmsg(2).
type rbatch struct {
	bufs, oobs [][]byte
	iov        []unix.Iovec
	hdrs       []unix.Mmsghdr
}

func newRBatch(max, size, oobSize int) *rbatch {
	b := &rbatch{bufs: make([][]byte, max), oobs: make([][]byte, max), iov: make([]unix.Iovec, max), hdrs: make([]unix.Mmsghdr, max)}
	for i := range b.bufs {
		b.bufs[i] = make([]byte, size)
		b.oobs[i] = make([]byte, oobSize)
		b.iov[i].Base = &b.bufs[i][0]
		b.iov[i].SetLen(size)
		b.hdrs[i].Hdr.Iov = &b.iov[i]
		b.hdrs[i].Hdr.SetIovlen(1)
		b.hdrs[i].Hdr.Control = &b.oobs[i][0]
	}
	return b
}

// recv reads the queued datagrams (at most the batch) without blocking and
// returns how many it got.
func (b *rbatch) recv(fd int) int {
	for i := range b.hdrs {
		b.hdrs[i].Hdr.SetControllen(len(b.oobs[i]))
		b.hdrs[i].Hdr.Flags = 0
	}
	n, _, e := unix.Syscall6(unix.SYS_RECVMMSG, uintptr(fd), uintptr(unsafe.Pointer(&b.hdrs[0])), uintptr(len(b.hdrs)), unix.MSG_DONTWAIT, 0, 0)
	if e != 0 {
		return 0
	}
	return int(n)
}

// msg returns datagram i of the last recv and its control messages.
func (b *rbatch) msg(i int) (data, oob []byte) {
	h := &b.hdrs[i]
	return b.bufs[i][:h.Len], b.oobs[i][:h.Hdr.Controllen]
}
