# Seed workload of the 2018 CRC T10-DIF thread: 50/50 random 256 KiB I/O on a Type 1 CRC device
# Use: dixload --dev /dev/sda --profile dif1 [--runtime 24 --hotload crct10dif_pclmul@10]
pi-format = T10-DIF-TYPE1-CRC
rw = randrw
rwmixread = 50
bs = 256k
iodepth = 1
engine = libaio
verify = on
# write the whole device once first: never-written blocks skip the guard check
# and make the "before" level drift (see --precondition in the README)
precondition = on
