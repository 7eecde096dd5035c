package env

import (
	"reflect"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr bool
		format  string
	}{
		{"", nil, false, ""},
		{"(null)", nil, false, ""},
		{"0", []int{0}, false, "0"},
		{"0-3", []int{0, 1, 2, 3}, false, "0-3"},
		{"0-1,4,6-7\n", []int{0, 1, 4, 6, 7}, false, "0-1,4,6-7"},
		{"3,1,2", []int{1, 2, 3}, false, "1-3"},
		{"3-1", nil, true, ""},
		{"a", nil, true, ""},
		{"-1", nil, true, ""},
	}
	for _, tt := range tests {
		got, err := ParseCPUList(tt.in)
		if (err != nil) != tt.wantErr || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseCPUList(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err == nil {
			if f := FormatCPUList(got); f != tt.format {
				t.Errorf("FormatCPUList(%v) = %q, want %q", got, f, tt.format)
			}
		}
	}
}

func TestParseCPUInfo(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want cpuInfo
	}{
		{"x86 guest", "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2445.432\nflags\t\t: fpu tsc hypervisor lahf_lm\n\nprocessor\t: 1\nvendor_id\t: AuthenticAMD\nmodel name\t: other\n\n",
			cpuInfo{Processors: 2, Vendor: "AuthenticAMD", Model: "AMD EPYC", MHz: 2445.432, Hypervisor: true, HaveFlags: true}},
		{"x86 bare metal", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)\nflags\t\t: fpu tsc hypervisorx\n",
			cpuInfo{Processors: 1, Vendor: "GenuineIntel", Model: "Intel(R) Xeon(R)", HaveFlags: true}},
		{"arm64", "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n\nprocessor\t: 1\n",
			cpuInfo{Processors: 2, Implementer: "0x41", Part: "0xd0c"}},
		{"empty", "", cpuInfo{}},
	}
	for _, tt := range tests {
		if got := parseCPUInfo(tt.in); got != tt.want {
			t.Errorf("%s: parseCPUInfo = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestParseOSRelease(t *testing.T) {
	in := "# comment\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\nVERSION_ID='12'\nNAME=\"Quote \\\"x\\\"\"\nbroken line\n\n"
	want := map[string]string{"PRETTY_NAME": "Debian GNU/Linux 12 (bookworm)", "ID": "debian", "VERSION_ID": "12", "NAME": `Quote "x"`}
	if got := parseOSRelease(in); !reflect.DeepEqual(got, want) {
		t.Errorf("parseOSRelease = %#v, want %#v", got, want)
	}
}

func TestCmdlineIsolation(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"root=/dev/sda1 ro quiet", nil},
		{"ro isolcpus=domain,managed_irq,2-3 nohz_full=2-3 rcu_nocbs=2-3 irqaffinity=0-1 quiet", []string{"isolcpus=domain,managed_irq,2-3", "nohz_full=2-3", "rcu_nocbs=2-3", "irqaffinity=0-1"}},
		{"quiet -- isolcpus=1", nil}, // after "--" the words belong to init
		{"isolcpusx=1 xnohz_full=1", nil},
	}
	for _, tt := range tests {
		if got := cmdlineIsolation(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("cmdlineIsolation(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSelectedMode(t *testing.T) {
	for in, want := range map[string]string{"always [madvise] never": "madvise", "[always] madvise never": "always", "always defer defer+madvise [madvise] never": "madvise", "never": "never"} {
		if got := selectedMode(in); got != want {
			t.Errorf("selectedMode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseCPUMax(t *testing.T) {
	tests := []struct {
		in            string
		quota, period int64
		ok, err       bool
	}{
		{"max 100000", -1, 100000, true, false},
		{"150000 100000", 150000, 100000, true, false},
		{"150000", 0, 0, false, true},
		{"x 100000", 0, 0, false, true},
		{"max y", 0, 0, false, true},
	}
	for _, tt := range tests {
		q, p, ok, err := parseCPUMax(tt.in)
		if q != tt.quota || p != tt.period || ok != tt.ok || (err != nil) != tt.err {
			t.Errorf("parseCPUMax(%q) = %d, %d, %v, %v", tt.in, q, p, ok, err)
		}
	}
}

func TestParseLoadAvg(t *testing.T) {
	got, err := parseLoadAvg("0.13 0.28 0.14 1/88 6128")
	if err != nil || !reflect.DeepEqual(got, []float64{0.13, 0.28, 0.14}) {
		t.Errorf("parseLoadAvg = %v, %v", got, err)
	}
	if _, err := parseLoadAvg("0.1 x"); err == nil {
		t.Error("parseLoadAvg accepted a short line")
	}
}

func TestParseMountinfo(t *testing.T) {
	in := "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:1 - cgroup cgroup rw,cpu,cpuacct\n" +
		"41 31 0:38 /docker /sys/fs/cgroup/with\\040space rw - cgroup2 cgroup2 rw\n"
	want := []mount{
		{root: "/", point: "/sys/fs/cgroup/cpu,cpuacct", fstype: "cgroup", superOpts: []string{"rw", "cpu", "cpuacct"}},
		{root: "/docker", point: "/sys/fs/cgroup/with space", fstype: "cgroup2", superOpts: []string{"rw"}},
	}
	if got := parseMountinfo(in); !reflect.DeepEqual(got, want) {
		t.Errorf("parseMountinfo = %+v, want %+v", got, want)
	}
}

func TestHypervisorNames(t *testing.T) {
	for sig, want := range map[string]string{"KVMKVMKVM\x00\x00\x00": "KVM", "Microsoft Hv": "Microsoft Hyper-V", "NewVisor\x00\x00\x00\x00": "NewVisor"} {
		if got := hypervisorFromSignature(sig); got != want {
			t.Errorf("hypervisorFromSignature(%q) = %q, want %q", sig, got, want)
		}
	}
	tests := []struct{ vendor, product, want string }{
		{"QEMU", "Standard PC (i440FX + PIIX, 1996)", "KVM"},
		{"Microsoft Corporation", "Virtual Machine", "Microsoft Hyper-V"},
		{"Microsoft Corporation", "Surface Laptop 5", ""},
		{"Dell Inc.", "PowerEdge R640", ""},
		{"innotek GmbH", "VirtualBox", "VirtualBox"},
	}
	for _, tt := range tests {
		if got := hypervisorFromDMI(tt.vendor, tt.product); got != tt.want {
			t.Errorf("hypervisorFromDMI(%q, %q) = %q, want %q", tt.vendor, tt.product, got, tt.want)
		}
	}
}
