#!/usr/bin/env python3
"""Writes the fake procfs/sysfs trees used by env's tests (run from env/testdata).

Each tree is a host as Linux shows it; the values are modeled on real
machines (file formats copied from a Debian 12 KVM guest and kernel docs)."""
import os, shutil

def w(root, path, content):
    p = os.path.join(root, path.lstrip('/'))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'w') as f:
        f.write(content if content.endswith('\n') or content == '' else content + '\n')

def cpuinfo(n, vendor, model, mhz, hypervisor):
    flags = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov constant_tsc nonstop_tsc" + (" hypervisor" if hypervisor else "") + " avx2"
    out = []
    for i in range(n):
        out.append(f"processor\t: {i}\nvendor_id\t: {vendor}\nmodel name\t: {model}\ncpu MHz\t\t: {mhz}\nflags\t\t: {flags}\n")
    return "\n".join(out)

def topo(root, cpus):
    for cpu, (pkg, core) in enumerate(cpus):
        d = f"/sys/devices/system/cpu/cpu{cpu}/topology/"
        w(root, d + "physical_package_id", str(pkg))
        w(root, d + "core_id", str(core))

def common(root, hostname, release):
    w(root, "/proc/sys/kernel/hostname", hostname)
    w(root, "/proc/sys/kernel/osrelease", release)
    w(root, "/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)")
    w(root, "/proc/sys/kernel/sched_rt_runtime_us", "950000")
    w(root, "/proc/sys/kernel/sched_rt_period_us", "1000000")
    w(root, "/proc/sys/kernel/randomize_va_space", "2")

for name in ["laptop", "kvm", "server"]:
    shutil.rmtree(name, ignore_errors=True)

# laptop: Intel, 2 cores x 2 threads, intel_pstate powersave with turbo,
# on battery, cgroup v2 with a 1.5 CPU quota, isolcpus=3, THP always.
r = "laptop"
common(r, "laptop", "6.5.0-14-generic")
w(r, "/proc/cpuinfo", cpuinfo(4, "GenuineIntel", "Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz", "800.012", False))
w(r, "/sys/devices/system/cpu/online", "0-3")
topo(r, [(0, 0), (0, 1), (0, 0), (0, 1)])
w(r, "/sys/devices/system/cpu/smt/control", "on")
for cpu in range(4):
    d = f"/sys/devices/system/cpu/cpu{cpu}/cpufreq/"
    w(r, d + "scaling_driver", "intel_pstate")
    w(r, d + "scaling_governor", "powersave")
    w(r, d + "scaling_min_freq", "400000")
    w(r, d + "scaling_max_freq", "4200000")
    w(r, d + "scaling_cur_freq", str(800000 + cpu * 100000))
w(r, "/sys/devices/system/cpu/intel_pstate/no_turbo", "0")
w(r, "/sys/devices/system/cpu/isolated", "3")
w(r, "/sys/devices/system/cpu/nohz_full", "3")
w(r, "/proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.5.0-14-generic root=UUID=1234 ro quiet splash isolcpus=3 nohz_full=3 rcu_nocbs=3")
w(r, "/proc/loadavg", "0.42 0.35 0.30 2/1024 12345")
w(r, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc")
w(r, "/sys/devices/system/clocksource/clocksource0/available_clocksource", "tsc hpet acpi_pm ")
w(r, "/sys/class/power_supply/AC/type", "Mains")
w(r, "/sys/class/power_supply/AC/online", "0")
w(r, "/sys/class/power_supply/BAT0/type", "Battery")
w(r, "/sys/class/power_supply/BAT0/present", "1")
w(r, "/sys/class/power_supply/BAT0/status", "Discharging")
w(r, "/sys/class/power_supply/BAT0/capacity", "57")
w(r, "/sys/class/dmi/id/sys_vendor", "LENOVO")
w(r, "/sys/class/dmi/id/product_name", "20L8S02D00")
w(r, "/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never")
w(r, "/sys/kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise [madvise] never")
w(r, "/proc/sys/kernel/perf_event_paranoid", "4")
w(r, "/etc/os-release", 'PRETTY_NAME="Ubuntu 23.10"\nNAME="Ubuntu"\nVERSION_ID="23.10"\nVERSION="23.10 (Mantic Minotaur)"\nID=ubuntu\n# comment\n')
w(r, "/proc/self/cgroup", "0::/user.slice/user-1000.slice/session-2.scope")
w(r, "/proc/self/mountinfo", "25 30 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n")
w(r, "/sys/fs/cgroup/cpu.max.absent", "")  # the root cgroup has no cpu.max
w(r, "/sys/fs/cgroup/user.slice/cpu.max", "max 100000")
w(r, "/sys/fs/cgroup/user.slice/user-1000.slice/cpu.max", "150000 100000")
w(r, "/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope/cpu.max", "max 100000")
os.remove(os.path.join(r, "sys/fs/cgroup/cpu.max.absent"))

# kvm: AMD guest like the CI VMs: no cpufreq, hypervisor flag, kvm-clock,
# cgroup v1 with a quota of half a CPU, os-release only in /usr/lib.
r = "kvm"
common(r, "guest", "6.1.0-18-amd64")
w(r, "/proc/cpuinfo", cpuinfo(2, "AuthenticAMD", "AMD EPYC 7B13", "2449.998", True))
w(r, "/sys/devices/system/cpu/online", "0-1")
topo(r, [(0, 0), (0, 1)])
w(r, "/sys/devices/system/cpu/smt/control", "notsupported")
w(r, "/sys/devices/system/cpu/isolated", "")
w(r, "/proc/cmdline", "console=ttyS0 root=/dev/vda1 quiet")
w(r, "/proc/loadavg", "1.73 0.80 0.41 3/188 4242")
w(r, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock")
w(r, "/sys/devices/system/clocksource/clocksource0/available_clocksource", "kvm-clock tsc acpi_pm ")
w(r, "/sys/class/dmi/id/sys_vendor", "QEMU")
w(r, "/sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)")
w(r, "/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never")
w(r, "/proc/sys/kernel/perf_event_paranoid", "2")
w(r, "/usr/lib/os-release", 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n')
w(r, "/proc/self/cgroup", "5:cpuset:/\n4:cpu,cpuacct:/docker/abc123\n1:name=systemd:/docker/abc123\n0::/docker/abc123")
w(r, "/proc/self/mountinfo",
  "30 25 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec - tmpfs tmpfs ro,mode=755\n"
  "33 30 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:12 - cgroup cgroup rw,cpu,cpuacct\n"
  "34 30 0:30 / /sys/fs/cgroup/cpuset rw,nosuid,nodev,noexec,relatime shared:13 - cgroup cgroup rw,cpuset\n")
w(r, "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1")
w(r, "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000")
w(r, "/sys/fs/cgroup/cpu,cpuacct/docker/abc123/cpu.cfs_quota_us", "50000")
w(r, "/sys/fs/cgroup/cpu,cpuacct/docker/abc123/cpu.cfs_period_us", "100000")

# server: bare metal, 2 packages x 2 cores, acpi-cpufreq performance, boost
# off, SMT off, cgroup v2 without limit, on AC.
r = "server"
common(r, "db1", "6.8.0-31-generic")
w(r, "/proc/cpuinfo", cpuinfo(4, "GenuineIntel", "Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz", "3000.000", False))
w(r, "/sys/devices/system/cpu/online", "0-3")
topo(r, [(0, 0), (0, 1), (1, 0), (1, 1)])
w(r, "/sys/devices/system/cpu/smt/control", "off")
for cpu in range(4):
    d = f"/sys/devices/system/cpu/cpu{cpu}/cpufreq/"
    w(r, d + "scaling_driver", "acpi-cpufreq")
    w(r, d + "scaling_governor", "performance")
    w(r, d + "scaling_min_freq", "3000000")
    w(r, d + "scaling_max_freq", "3000000")
    w(r, d + "scaling_cur_freq", "3000000")
w(r, "/sys/devices/system/cpu/cpufreq/boost", "0")
w(r, "/sys/devices/system/cpu/isolated", "")
w(r, "/sys/devices/system/cpu/nohz_full", "(null)")
w(r, "/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro")
w(r, "/proc/loadavg", "0.01 0.03 0.00 1/300 999")
w(r, "/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc")
w(r, "/sys/devices/system/clocksource/clocksource0/available_clocksource", "tsc hpet acpi_pm ")
w(r, "/sys/class/power_supply/AC/type", "Mains")
w(r, "/sys/class/power_supply/AC/online", "1")
w(r, "/sys/class/dmi/id/sys_vendor", "Dell Inc.")
w(r, "/sys/class/dmi/id/product_name", "PowerEdge R640")
w(r, "/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]")
w(r, "/proc/sys/kernel/perf_event_paranoid", "1")
w(r, "/etc/os-release", 'PRETTY_NAME="Ubuntu 24.04 LTS"\nID=ubuntu\nVERSION_ID="24.04"\n')
w(r, "/proc/self/cgroup", "0::/system.slice/db.service")
w(r, "/proc/self/mountinfo", "25 30 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n")
w(r, "/sys/fs/cgroup/system.slice/cpu.max", "max 100000")
w(r, "/sys/fs/cgroup/system.slice/db.service/cpu.max", "max 100000")
