# DIX with the IP-checksum guard (Type 1): the CRC module makes no difference here
# scsi_debug: dif=1 dix=1 guard=1
pi-format = T10-DIF-TYPE1-IP
rw = randrw
rwmixread = 50
bs = 256k
iodepth = 1
engine = libaio
verify = on
# write the whole device once first: never-written blocks skip the guard check
# and make the "before" level drift (see --precondition in the README)
precondition = on
