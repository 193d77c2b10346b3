package packet

// FIFO is an intrusive first-in first-out queue of packets. It allocates
// nothing: packets are linked through their own next field, so a packet can be
// in at most one FIFO (or free list) at a time.
type FIFO struct {
	head, tail *Packet
	n          int
	bytes      int
}

// Push appends p at the tail.
func (q *FIFO) Push(p *Packet) {
	p.next = nil
	if q.tail == nil {
		q.head = p
	} else {
		q.tail.next = p
	}
	q.tail = p
	q.n++
	q.bytes += p.Size
}

// Pop removes and returns the head, or nil when empty.
func (q *FIFO) Pop() *Packet {
	p := q.head
	if p == nil {
		return nil
	}
	q.head = p.next
	if q.head == nil {
		q.tail = nil
	}
	p.next = nil
	q.n--
	q.bytes -= p.Size
	return p
}

// Peek returns the head without removing it, or nil.
func (q *FIFO) Peek() *Packet { return q.head }

// Len returns the number of packets queued.
func (q *FIFO) Len() int { return q.n }

// Bytes returns the sum of the queued packets' sizes.
func (q *FIFO) Bytes() int { return q.bytes }
