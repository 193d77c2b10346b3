package seq

import (
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph" //nolint:staticcheck // gomlx's graph DSL reads as math
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// init kinds of a parameter.
type initKind struct {
	std   float64 // normal(0, std) when > 0
	value float32 // constant otherwise
}

func normalInit(std float64) initKind { return initKind{std: std} }

var (
	zeroInit = initKind{}
	oneInit  = initKind{value: 1}
)

// param returns the graph value of the float32 variable name in ctx's
// scope, creating it on first use. Its initial value is drawn from a PCG
// stream keyed by (seed, scope/name), so it does not depend on the order
// variables are created in, and the same seed gives the same weights.
func param(ctx *context.Context, g *Graph, seed uint64, name string, init initKind, dims ...int) *Node {
	v := ctx.InspectVariable(ctx.Scope(), name)
	if v == nil {
		v = ctx.Checked(false).VariableWithValue(name, initTensor(seed, ctx.Scope()+"/"+name, init, dims))
	}
	return v.ValueGraph(g)
}

func initTensor(seed uint64, key string, init initKind, dims []int) *tensors.Tensor {
	n := 1
	for _, d := range dims {
		n *= d
	}
	v := make([]float32, n)
	if init.std > 0 {
		h := fnv.New64a()
		h.Write([]byte(key))
		rng := rand.New(rand.NewPCG(seed, h.Sum64()))
		for i := range v {
			v[i] = float32(rng.NormFloat64() * init.std)
		}
	} else if init.value != 0 {
		for i := range v {
			v[i] = init.value
		}
	}
	t := tensors.FromShape(shapes.Make(dtypes.Float32, dims...))
	tensors.MustMutableFlatData(t, func(flat []float32) { copy(flat, v) })
	return t
}

// fanIn is the 1/√fan_in scale of a dense layer's weights (LeCun init).
func fanIn(n int) float64 { return 1 / math.Sqrt(float64(n)) }
