package emu

import "github.com/leolab/leolab/packet"

// Buffer sizing. The TUN MTU is packet.MTU; a read buffer must hold one
// whole IP packet. slabChunk buffers are allocated at once when the free
// list runs dry (the only allocation on the packet path).
const (
	bufSize   = 2048
	slabChunk = 512
)

// slab is the side table holding the raw bytes of the packets in flight:
// packet.Packet carries no payload, so the pump stores a slab index in the
// packet's TxID (a field no link stage reads) and keeps the bytes here.
type slab struct {
	bufs [][]byte
	n    []int // valid bytes per buffer
	free []uint32
}

// get returns a free buffer's index.
func (s *slab) get() uint32 {
	if len(s.free) == 0 {
		s.grow()
	}
	i := s.free[len(s.free)-1]
	s.free = s.free[:len(s.free)-1]
	return i
}

func (s *slab) grow() {
	mem := make([]byte, slabChunk*bufSize)
	base := len(s.bufs)
	for k := 0; k < slabChunk; k++ {
		s.bufs = append(s.bufs, mem[k*bufSize:(k+1)*bufSize:(k+1)*bufSize])
		s.n = append(s.n, 0)
	}
	for k := slabChunk - 1; k >= 0; k-- {
		s.free = append(s.free, uint32(base+k))
	}
}

// put returns buffer i to the free list.
func (s *slab) put(i uint32) {
	s.n[i] = 0
	s.free = append(s.free, i)
}

// bytes returns the packet's valid bytes.
func (s *slab) bytes(p *packet.Packet) []byte {
	i := p.TxID
	return s.bufs[i][:s.n[i]]
}

// inUse is the number of buffers handed out (for leak tests).
func (s *slab) inUse() int { return len(s.bufs) - len(s.free) }
