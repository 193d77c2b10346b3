package orbit

import "time"

// Source is a set of satellites whose Earth-fixed positions are known at
// any instant: a Walker constellation or a set of TLEs.
type Source interface {
	Len() int
	Name(i int) string
	// Position returns satellite i's ECEF position at t in km (NaNs when
	// the satellite cannot be propagated to t).
	Position(i int, t time.Time) Vec3
	// Positions fills dst (grown if short) with every satellite's ECEF
	// position at t and returns it.
	Positions(t time.Time, dst []Vec3) []Vec3
}

// Grid is a Source with inter-satellite links: up to four neighbours per
// satellite (−1 where there is none).
type Grid interface {
	Source
	Neighbours(i int) [4]int
}
