package env

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
)

// TestReadCgroup reads CPU quotas from small cgroup trees.
func TestReadCgroup(t *testing.T) {
	const v2mount = "25 30 0:22 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
	const v1mount = "33 30 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n" + v2mount
	tests := []struct {
		name    string
		files   map[string]string
		want    *Cgroup
		wantErr string
	}{
		{"v2 root cgroup, no cpu.max", map[string]string{
			"/proc/self/cgroup": "0::/", "/proc/self/mountinfo": v2mount,
		}, &Cgroup{Version: 2, Path: "/", Unlimited: true}, ""},
		{"v2 tightest of nested limits", map[string]string{
			"/proc/self/cgroup": "0::/a/b", "/proc/self/mountinfo": v2mount,
			"/sys/fs/cgroup/a/cpu.max": "100000 100000", "/sys/fs/cgroup/a/b/cpu.max": "300000 100000",
		}, &Cgroup{Version: 2, Path: "/a/b", CPUQuotaUs: 100000, CPUPeriodUs: 100000, LimitCPUs: 1}, ""},
		{"v2 namespace hides the path", map[string]string{
			"/proc/self/cgroup": "0::/../../kubepods/pod1", "/proc/self/mountinfo": v2mount,
			"/sys/fs/cgroup/cpu.max": "250000 100000",
		}, &Cgroup{Version: 2, Path: "/../../kubepods/pod1", CPUQuotaUs: 250000, CPUPeriodUs: 100000, LimitCPUs: 2.5}, ""},
		{"v2 malformed cpu.max", map[string]string{
			"/proc/self/cgroup": "0::/a", "/proc/self/mountinfo": v2mount, "/sys/fs/cgroup/a/cpu.max": "lots",
		}, nil, "cpu.max holds"},
		{"hybrid: the v1 cpu controller wins", map[string]string{
			"/proc/self/cgroup": "3:cpu:/x\n0::/y", "/proc/self/mountinfo": v1mount,
			"/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1", "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000",
			"/sys/fs/cgroup/cpu/x/cpu.cfs_quota_us": "20000", "/sys/fs/cgroup/cpu/x/cpu.cfs_period_us": "10000",
			"/sys/fs/cgroup/y/cpu.max": "50000 100000",
		}, &Cgroup{Version: 1, Path: "/x", CPUQuotaUs: 20000, CPUPeriodUs: 10000, LimitCPUs: 2}, ""},
		{"v1 unlimited", map[string]string{
			"/proc/self/cgroup": "3:cpu:/", "/proc/self/mountinfo": v1mount,
			"/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1", "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000",
		}, &Cgroup{Version: 1, Path: "/", Unlimited: true}, ""},
		{"no cgroup file", map[string]string{"/proc/self/mountinfo": v2mount}, nil, "/proc/self/cgroup does not exist"},
		{"no cpu controller mounted", map[string]string{
			"/proc/self/cgroup": "3:cpu:/", "/proc/self/mountinfo": "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n",
		}, nil, "no mounted cgroup cpu controller"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := crosstest.TempDir(t)
			for p, content := range tt.files {
				full := filepath.Join(root, p)
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(content+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := readCgroup(fsys{root})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("readCgroup: error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("readCgroup = %+v, want %+v", got, tt.want)
			}
		})
	}
}
