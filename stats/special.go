package stats

import "math"

// normalSF is the standard normal survival function P(Z > z), computed as
// cephes' ndtr(-z) (scipy.stats.norm.sf) computes it.
func normalSF(z float64) float64 {
	x := -z / math.Sqrt2
	if math.Abs(x) < 1/math.Sqrt2 {
		return 0.5 + float64(0.5*math.Erf(x))
	}
	y := float64(0.5 * math.Erfc(math.Abs(x)))
	if x > 0 {
		return 1 - y
	}
	return y
}

// studentTSF returns P(T > t) for Student's t distribution with df > 0
// degrees of freedom, t >= 0, through the regularized incomplete beta
// function: P(T > t) = I_x(df/2, 1/2) / 2 with x = df/(df+t²).
func studentTSF(t, df float64) float64 {
	if math.IsNaN(t) || !(df > 0) {
		return math.NaN()
	}
	if math.IsInf(t, 1) {
		return 0
	}
	t2 := float64(t * t)
	// x and 1-x computed separately, each without cancellation.
	x := df / (df + t2)
	y := t2 / (df + t2)
	return 0.5 * betaIncReg(df/2, 0.5, x, y)
}

// betaIncReg returns the regularized incomplete beta function I_x(a, b),
// given x and y = 1-x (computed by the caller without cancellation), by
// the continued fraction (modified Lentz), evaluated on the side where it
// converges fast: I_x(a, b) = 1 - I_y(b, a).
func betaIncReg(a, b, x, y float64) float64 {
	switch {
	case x <= 0:
		return 0
	case y <= 0:
		return 1
	}
	if x > (a+1)/(a+b+2) {
		return 1 - betaIncReg(b, a, y, x)
	}
	lbeta := lgamma(a+b) - lgamma(a) - lgamma(b)
	front := math.Exp(float64(math.Log(x)*a)+float64(math.Log1p(-x)*b)+lbeta) / a
	if y != 1-x {
		front = math.Exp(float64(math.Log(x)*a)+float64(math.Log(y)*b)+lbeta) / a
	}
	return front * betaCF(a, b, x)
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// betaCF evaluates the continued fraction of the incomplete beta function
// by the modified Lentz method (Numerical Recipes, 6.4).
func betaCF(a, b, x float64) float64 {
	const (
		eps  = 1e-16
		tiny = 1e-300
	)
	qab, qap, qam := a+b, a+1, a-1
	c := 1.0
	d := 1 - float64(qab*x/qap)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 10000; m++ {
		fm := float64(m)
		m2 := 2 * fm
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + float64(aa*d)
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + float64(aa*d)
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := float64(d * c)
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}
