# NVMe namespace with 64-bit CRC64-NVMe guard (16-byte PI, Type 1), 50/50 random 16 KiB
# QEMU: -device nvme-ns,...,ms=16,pi=1,pif=2 (needs a QEMU with pif support)
pi-format = EXT-DIF-TYPE1-CRC64
rw = randrw
rwmixread = 50
bs = 16k
iodepth = 8
engine = libaio
verify = on
# write the whole device once first: never-written blocks skip the guard check
# and make the "before" level drift (see --precondition in the README)
precondition = on
