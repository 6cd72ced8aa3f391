# Type 3 CRC device (reference tag not checked), 50/50 random 64 KiB
# scsi_debug: dif=3 dix=1 guard=0
pi-format = T10-DIF-TYPE3-CRC
rw = randrw
rwmixread = 50
bs = 64k
iodepth = 4
engine = libaio
verify = on
# write the whole device once first: never-written blocks skip the guard check
# and make the "before" level drift (see --precondition in the README)
precondition = on
