/*
 * Unit tests of lib/jsonw against JavaScript. The expected strings were
 * written by Node.js (String(x) of each double, JSON.stringify(JSON.parse(s))
 * and String(JSON.parse(s))), so they are JavaScript's own answers.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "json/jsonx.h"
#include "unit.h"

/* Doubles by their bits, and Number.prototype.toString of each. */
static const struct {
	uint64_t	 bits;
	const char	*js;
} numbers[] = {
	/*
	 * Powers of two whose shortest spelling is not the nearest decimal
	 * of that length: below them the doubles are twice as close, so the
	 * nearest 16-digit decimal falls outside the rounding interval while
	 * the next one up still reads back as x.
	 */
	{ 0x0060000000000000u, "7.120236347223045e-307" },
	{ 0x0100000000000000u, "7.291122019556398e-304" },
	{ 0x0420000000000000u, "8.209073602596753e-289" },
	{ 0x0660000000000000u, "5.641232424577593e-278" },
	{ 0x0d70000000000000u, "5.858190679279809e-244" },
	{ 0x0e80000000000000u, "7.678447687145631e-239" },
	{ 0x0eb0000000000000u, "6.142758149716505e-238" },
	{ 0x0f50000000000000u, "6.290184345309701e-235" },
	{ 0x13e0000000000000u, "5.940911144672375e-213" },
	{ 0x1480000000000000u, "6.083493012144512e-210" },
	{ 0x1690000000000000u, "5.225680706521042e-200" },
	{ 0x1730000000000000u, "5.351097043477547e-197" },
	{ 0x1da0000000000000u, "5.426657103235053e-166" },
	{ 0x2020000000000000u, "5.966672584960166e-154" },
	{ 0x20f0000000000000u, "4.887898181599368e-150" },
	{ 0x2160000000000000u, "6.256509672447191e-148" },
	{ 0x2800000000000000u, "5.075883674631299e-116" },
	{ 0x2910000000000000u, "6.653062250012736e-111" },
	{ 0x2d70000000000000u, "7.854549544476363e-90" },
	{ 0x3730000000000000u, "7.174648137343064e-43" },
	{ 0x39e0000000000000u, "6.310887241768095e-30" },
	{ 0x3b20000000000000u, "6.617444900424222e-24" },
	{ 0x3d30000000000000u, "5.684341886080802e-14" },
	{ 0x3e70000000000000u, "5.960464477539063e-8" },
	{ 0x4580000000000000u, "6.189700196426902e+26" },
	{ 0x4790000000000000u, "5.316911983139664e+36" },
	{ 0x4830000000000000u, "5.444517870735016e+39" },
	{ 0x4ab0000000000000u, "5.986310706507379e+51" },
	{ 0x4b50000000000000u, "6.129982163463556e+54" },
	{ 0x5120000000000000u, "6.070840288205404e+82" },
	{ 0x5300000000000000u, "6.518515124270356e+91" },
	{ 0x5580000000000000u, "7.167183174968974e+103" },
	{ 0x5790000000000000u, "6.156563468186638e+113" },
	{ 0x58d0000000000000u, "6.455624695217272e+119" },
	{ 0x5940000000000000u, "8.263199609878108e+121" },
	{ 0x5e00000000000000u, "6.243497100631985e+144" },
	{ 0x6150000000000000u, "5.623642243178996e+160" },
	{ 0x61f0000000000000u, "5.758609657015292e+163" },
	{ 0x6290000000000000u, "5.896816288783659e+166" },
	{ 0x63d0000000000000u, "6.183260036827614e+172" },
	{ 0x6510000000000000u, "6.483618076376552e+178" },
	{ 0x6c50000000000000u, "5.386379163185535e+213" },
	{ 0x7220000000000000u, "5.334411546303884e+241" },
	{ 0x75e0000000000000u, "6.150157786156811e+259" },
	{ 0x77f0000000000000u, "5.282945311356653e+269" },
	{ 0x7cf0000000000000u, "6.386688990511104e+293" },
	{ 0x8060000000000000u, "-7.120236347223045e-307" },
	{ 0x8f50000000000000u, "-6.290184345309701e-235" },
	/* the values named in the brief, then random bit patterns */
	{ 0x0000000000000000u, "0" },
	{ 0x8000000000000000u, "0" },
	{ 0x3ff0000000000000u, "1" },
	{ 0xbff0000000000000u, "-1" },
	{ 0x3fb999999999999au, "0.1" },
	{ 0xbfb999999999999au, "-0.1" },
	{ 0x3fc999999999999au, "0.2" },
	{ 0x3fe0000000000000u, "0.5" },
	{ 0x3fd3333333333334u, "0.30000000000000004" },
	{ 0x3fd3333333333333u, "0.3" },
	{ 0x3fd5555555555555u, "0.3333333333333333" },
	{ 0x3fe5555555555555u, "0.6666666666666666" },
	{ 0x4059000000000000u, "100" },
	{ 0x4415af1d78b58c40u, "100000000000000000000" },
	{ 0x444b1ae4d6e2ef50u, "1e+21" },
	{ 0xc44b1ae4d6e2ef50u, "-1e+21" },
	{ 0x4480f0cf064dd592u, "1e+22" },
	{ 0x444b1ae4d6e2ef4fu, "999999999999999900000" },
	{ 0x441ac53a7e04bcdau, "123456789012345680000" },
	{ 0x3e7ad7f29abcaf48u, "1e-7" },
	{ 0xbe7ad7f29abcaf48u, "-1e-7" },
	{ 0x3eb0c6f7a0b5ed8du, "0.000001" },
	{ 0x3e8421f5f40d8376u, "1.5e-7" },
	{ 0x3eb4b3fd5942cd96u, "0.000001234" },
	{ 0x3c36b082c2148b8eu, "1.23e-18" },
	{ 0x0000000000000001u, "5e-324" },
	{ 0x8000000000000001u, "-5e-324" },
	{ 0x0000000000000002u, "1e-323" },
	{ 0x0000000000000005u, "2.5e-323" },
	{ 0x0000000000000001u, "5e-324" },
	{ 0x000fffffffffffffu, "2.225073858507201e-308" },
	{ 0x0010000000000000u, "2.2250738585072014e-308" },
	{ 0x0008000000000000u, "1.1125369292536007e-308" },
	{ 0x0000000000001ae2u, "3.4e-320" },
	{ 0x4340000000000000u, "9007199254740992" },
	{ 0x433fffffffffffffu, "9007199254740991" },
	{ 0x4340000000000001u, "9007199254740994" },
	{ 0xc340000000000000u, "-9007199254740992" },
	{ 0x4350000000000000u, "18014398509481984" },
	{ 0x43b0000000000000u, "1152921504606847000" },
	{ 0x43f0000000000000u, "18446744073709552000" },
	{ 0x4450000000000000u, "1.1805916207174113e+21" },
	{ 0x4341c37937e08000u, "10000000000000000" },
	{ 0x43e56a95319d63e1u, "12345678901234567000" },
	{ 0x7fefffffffffffffu, "1.7976931348623157e+308" },
	{ 0xffefffffffffffffu, "-1.7976931348623157e+308" },
	{ 0x7e41eb2d66005835u, "1.5e+300" },
	{ 0x7e37e43c8800759cu, "1e+300" },
	{ 0x40fe240c9fbe76c9u, "123456.789" },
	{ 0xc0fe240c9fbe76c9u, "-123456.789" },
	{ 0x3fe0000000000000u, "0.5" },
	{ 0x3fd0000000000000u, "0.25" },
	{ 0x3ff8000000000000u, "1.5" },
	{ 0x400921f9f01b866eu, "3.14159" },
	{ 0x400921fb54442d18u, "3.141592653589793" },
	{ 0x4005bf0a8b145769u, "2.718281828459045" },
	{ 0x3ee4f8b588e368f1u, "0.00001" },
	{ 0x3f50624dd2f1a9fcu, "0.001" },
	{ 0x40934a456d5cfaadu, "1234.5678" },
	{ 0x4023000000000000u, "9.5" },
	{ 0x3f201f31f46ed246u, "0.000123" },
	{ 0x4011666666666666u, "4.35" },
	{ 0x3ff0147ae147ae14u, "1.005" },
	{ 0x3ea0c6f7a0b5ed8du, "5e-7" },
	{ 0x54b249ad2594c37du, "1e+100" },
	{ 0x2b2bff2ee48e0530u, "1e-100" },
	{ 0x0010000000000000u, "2.2250738585072014e-308" },
	{ 0x0000000000000003u, "1.5e-323" },
	{ 0x441aabdf2145b430u, "123000000000000000000" },
	{ 0x4450ab6b74cb909eu, "1.23e+21" },
	{ 0x4450ab6b74cb909eu, "1.23e+21" },
	{ 0x3e080d43de9cc603u, "7e-10" },
	{ 0x40f0000000000000u, "65536" },
	{ 0x41efffffffe00000u, "4294967295" },
	{ 0x41f0000000000000u, "4294967296" },
	{ 0x3ff0000000000001u, "1.0000000000000002" },
	{ 0x3fefffffffffffffu, "0.9999999999999999" },
	{ 0xfcf5b537fbd05939u, "-8.665094580208625e+293" },
	{ 0xc23e43c2c933bd4bu, "-129985857843.73943" },
	{ 0xa2bda0f682bd57b6u, "-2.4297161703368154e-141" },
	{ 0x41a08bc5edab9a36u, "138797814.8351609" },
	{ 0xba9a1ca6eb7bd80bu, "-2.1093042608092764e-26" },
	{ 0x3c5c09c2bd3d0855u, "6.079799800448557e-18" },
	{ 0xd0bd8f1c001d395fu, "-8.762114042202293e+80" },
	{ 0x3b4ce13c4f37b712u, "4.7777665147873065e-23" },
	{ 0x492f2020f0e41c52u, "3.470609517695721e+44" },
	{ 0x3b71b6bca9168f2fu, "2.344404057668699e-22" },
	{ 0x26a8d89fe3b52027u, "1.8792803403134027e-122" },
	{ 0xc1ea409244048a67u, "-3523514912.141895" },
	{ 0x3d22de5bf9100610u, "3.351735048634204e-14" },
	{ 0x3e9b2e4ed5de0781u, "4.050268297349131e-7" },
	{ 0xbf8d394fcb354a05u, "-0.014269469632073326" },
	{ 0xbf8628ae77aba59au, "-0.01081978132920618" },
	{ 0xe13b3a23214d3f33u, "-2.3924290862986663e+160" },
	{ 0x42ba420cdfec3d1du, "28870986165309.113" },
	{ 0x2d15a67c428bffd3u, "1.6606798591090059e-91" },
	{ 0xbc2d4927a87bd81bu, "-7.93792152917836e-19" },
	{ 0xf4dbe60c0e9982b7u, "-8.181616024573747e+254" },
	{ 0x3ed7f15fa93e12cfu, "0.000005708424072885158" },
	{ 0x3459e0324b17ea35u, "1.6488990305507995e-56" },
	{ 0xc3c5136544c00248u, "-3037337690615091000" },
	{ 0xc72bf38daed0c4a9u, "-7.25659329939096e+34" },
	{ 0xc0f7a945eb43bd9au, "-96916.36993764938" },
	{ 0x5f439e61fd16049bu, "8.027451456127194e+150" },
	{ 0xbd672fd507f5cb09u, "-6.590097526251098e-13" },
	{ 0x42b09285276a5b66u, "18221485222491.4" },
	{ 0x3b1fdf3ab5d31e97u, "6.5909729696072856e-24" },
	{ 0x3e70b65006e64788u, "6.225764235246544e-8" },
	{ 0xbf09b45808c47b5fu, "-0.00004902738246158918" },
	{ 0x787d879ce334b4e9u, "2.4960638261697985e+272" },
	{ 0x3f3a36d8049fdf0du, "0.00039999746206785606" },
	{ 0x10ed8f54f8eb7dd4u, "3.8993848565085067e-227" },
	{ 0xbda081135f3d3edeu, "-7.50524206691502e-12" },
	{ 0x01e062f0864a3d5eu, "1.2234326446868466e-299" },
	{ 0xbe5b449cf1662e12u, "-2.5395322367179922e-8" },
	{ 0x07da27cf68baad04u, "7.735832896050672e-271" },
	{ 0xbe4d65df7087a8c2u, "-1.3689482895315985e-8" },
	{ 0x0f88028b09dd151eu, "7.551345567679532e-234" },
	{ 0x407eaec043a83626u, "490.92193952281593" },
	{ 0x1f86f2e112b361eau, "8.35740104019023e-157" },
	{ 0xbce2369c9979b09du, "-2.022085501145192e-15" },
	{ 0x4b0a370ad3b1465au, "3.1386237756593436e+53" },
	{ 0x419ac188a9b79d6cu, "112222762.42931145" },
	{ 0xdf38afc41d451d58u, "-5.050552466542022e+150" },
	{ 0x438bbd7811b9cdbau, "249860728393676600" },
	{ 0x25d73c265517c8aeu, "2.145278879964387e-126" },
	{ 0xc0b4eeecf0cb267du, "-5358.925549218079" },
	{ 0x95ebd69899653e57u, "-4.439510785814508e-203" },
	{ 0x3d21d192fdbb8d90u, "3.165227929863749e-14" },
	{ 0x68cd2f7064fd38b2u, "6.817599390523849e+196" },
	{ 0x41ddb659d43cee95u, "1993959248.952062" },
	{ 0xdc83f3c61ce1958bu, "-4.640659812019333e+137" },
	{ 0x3dc70bc11771fe1du, "4.192027535052488e-11" },
	{ 0x15699c10c1759479u, "1.5953511345651147e-205" },
	{ 0xc1fb343e5e377ef6u, "-7302538723.468496" },
	{ 0x1f70636104101c04u, "2.9841008989033717e-157" },
	{ 0xc26cffb956ef62a4u, "-996395366267.0825" },
	{ 0x09fa4c119737a22du, "1.336202680028185e-260" },
	{ 0x4017b243fd69b9afu, "5.924087485864603" },
	{ 0xdbc02adac1d87f79u, "-9.180541197560778e+133" },
	{ 0xbc04be5325f63167u, "-1.4056312701647072e-19" },
	{ 0xb2367dca1df12e8au, "-8.342511054550583e-67" },
	{ 0x3b398d2c09c3a783u, "2.1135666725076605e-23" },
	{ 0x1e0bd1c579c64c2eu, "6.0386580152829786e-164" },
	{ 0x3ba98b01b772f594u, "2.7044697860555884e-21" },
	{ 0xae25775366570fedu, "-2.158165430234287e-86" },
	{ 0x3b559d38b3c0feabu, "7.151521162231107e-23" },
	{ 0x6068752a5e8219beu, "2.6233907657187838e+156" },
	{ 0x4243917c0153d54fu, "168090403495.66647" },
	{ 0xecf5283e24d73c91u, "-7.29348427236132e+216" },
	{ 0x3d786ddd682a0152u, "1.3886369544619559e-12" },
	{ 0x7fce3df14f7d2c50u, "4.247325774216718e+307" },
	{ 0xc0ef8393aab66060u, "-64540.614588917" },
	{ 0x4365ab82bf1666f5u, "48796420407506856" },
	{ 0xbc91644d29f457d9u, "-6.033993592085709e-17" },
	{ 0xc8fc084642ea8f37u, "-3.907135453493412e+43" },
	{ 0xbf8e76debfb18956u, "-0.014875164246579569" },
	{ 0xd34cf0cad7df4813u, "-1.8864970714096337e+93" },
	{ 0xc3b8fe2f6593a879u, "-1800929014310271200" },
	{ 0x057fd099d7c03147u, "3.4232129868157526e-282" },
	{ 0x3d24ff132f5af85cu, "3.729707474347622e-14" },
	{ 0x635d28fc8f3a28beu, "4.401965434535059e+170" },
	{ 0xc3d1aa2eeaf4ae52u, "-5091525725391505000" },
	{ 0x690f4bb80ce7cc68u, "1.1696957420930892e+198" },
	{ 0x3fc9ee6b97ca6508u, "0.20258850967074005" },
	{ 0xdcec37001837ff69u, "-4.1999650993515563e+139" },
	{ 0x3cf0223ba888f67eu, "3.582406108209959e-15" },
	{ 0x4e1e31e5a18604e9u, "2.0351329175011557e+68" },
	{ 0xc362c6e2167ed50du, "-42281791384889450" },
	{ 0x77ade12b85a9db3cu, "3.0830495324006923e+268" },
	{ 0x3c1564501facb429u, "2.8991359539659288e-19" },
	{ 0xe2446e910bf190a4u, "-2.3531868178257243e+165" },
	{ 0x430b438058448ea3u, "959255360868820.4" },
	{ 0x1220bc3ba22b7174u, "2.3148684012089807e-221" },
	{ 0xc2356cb98555f0bdu, "-92018410837.94038" },
	{ 0x7f7a6119425f45c0u, "1.1577605358433618e+306" },
	{ 0xc0a8d5a45031292cu, "-3178.8209243166693" },
	{ 0xdcbbd5d5fe57caedu, "-5.1793334839743715e+138" },
	{ 0xc05c711165116c4fu, "-113.76668669415925" },
	{ 0xc2f7042abfd23928u, "-404906632356754.5" },
	{ 0x434675b762a6cb8cu, "12643759964395288" },
	{ 0x2e014a13a2c02a44u, "4.34560484306438e-87" },
	{ 0x3b7cd728afc6be89u, "3.8170037050369367e-22" },
	{ 0x702045530fcc1d50u, "1.263035465652165e+232" },
	{ 0xc3ef7605ee70fe0cu, "-18136047872669410000" },
	{ 0x0622f308bdaa726du, "4.1756913919470024e-279" },
	{ 0x43978145d27358e3u, "423427926262167740" },
	{ 0x9bfe9738c57b04cbu, "-7.730223880370701e-174" },
	{ 0x408253587c95a5f6u, "586.4182063761971" },
	{ 0xab9453ce7416e7f7u, "-9.293570576841623e-99" },
	{ 0xc3bdf0c627251856u, "-2157442092938843600" },
	{ 0x0e7f81291da49af3u, "7.559559792639475e-239" },
	{ 0x3d222d35fac995adu, "3.2288136455911944e-14" },
	{ 0x6b470ec70aeba425u, "5.922205333942222e+208" },
	{ 0x43dd21a7e5842391u, "8396574022150538000" },
	{ 0xf87549bda52c4e84u, "-1.7994176634921652e+272" },
	{ 0xbdca7c8d81c985c8u, "-4.8178725092252755e-11" },
	{ 0xd3ae081efd0c4c6eu, "-1.2528783333303946e+95" },
	{ 0x3ffb0dcb4e24bb75u, "1.6908677151183984" },
	{ 0x45f2025238a05aa7u, "8.917658091275897e+28" },
	{ 0xbf68c3ff3315b847u, "-0.0030231460920538164" },
	{ 0xbcd222485a1202d1u, "-1.0066345813255519e-15" },
	{ 0x3b1815883044eb58u, "4.980477075520502e-24" },
	{ 0x8ce2d2674451be49u, "-1.3459742453653288e-246" },
	{ 0xc300396171565171u, "-570836287932974.1" },
	{ 0x7c4437c4b3cac93au, "3.940585000033527e+290" },
	{ 0x3c3a348cf299eeadu, "1.420590841718291e-18" },
	{ 0x4b681b0fd322add2u, "1.8470946708088355e+55" },
	{ 0x43a4c0dab640be61u, "747717776296063100" },
	{ 0x5ddd5a54489e0b4au, "1.4317533196948368e+144" },
	{ 0x405e741f84e7876du, "121.81442377672438" },
	{ 0xf902e63ba13dcf7bu, "-8.179238389771565e+274" },
	{ 0xbf45993194d7fe3au, "-0.0006591312500745024" },
	{ 0xc251380fa02b0c5bu, "-295819968684.19305" },
	{ 0x407d13e6ad461f3du, "465.24381759063164" },
	{ 0xe724b3332fe95cfdu, "-7.205392447701756e+188" },
	{ 0xbbe56aef7b34cf4eu, "-3.6283023389981466e-20" },
	{ 0xe3904e31e0ecb46au, "-3.938313618432958e+171" },
	{ 0x439247aaa43d759fu, "329302259602909100" },
	{ 0xc31d35f686be2b6au, "-2055526815861466.5" },
	{ 0x428c8540fd1eab74u, "3919830819797.4316" },
	{ 0xa9efff7190f76c70u, "-1.0899636861954952e-106" },
	{ 0x41b43a20f60dbed9u, "339353846.05369335" },
	{ 0x0325c088cd82dfbdu, "1.7029236492534617e-293" },
	{ 0xbb2b075208938725u, "-1.1178765083578594e-23" },
	{ 0x77ce1368f50334b5u, "1.2413196380449644e+269" },
	{ 0xbdde9d23f1bd7fe7u, "-1.1137246371238833e-10" },
	{ 0xdb2c0fcd64a84ff8u, "-1.5561180447927722e+131" },
	{ 0x41caf363190dcb61u, "904316466.1077691" },
	{ 0xab12b71dee04fbc9u, "-3.3423988170635665e-101" },
	{ 0xc3f9310b1f242badu, "-29043909650972070000" },
	{ 0xf85d02cb322e1225u, "-6.130522677773272e+271" },
	{ 0xbf61eaf7513a4dc6u, "-0.0021872358718810518" },
	{ 0x3efa2aeb183673d9u, "0.00002495541549550951" },
	{ 0x3d199aa2644103bfu, "2.2740956139903902e-14" },
	{ 0xef6ad33319f1392fu, "-5.0837763047711745e+228" },
	{ 0xc3044a3e12f956f7u, "-713891250121438.9" },
	{ 0x6997cb150a3cbe8au, "4.553146495358707e+200" },
	{ 0x433ebe34b9dbab02u, "8653382967077634" },
	{ 0xf99f3caa7fa42c22u, "-6.921576317717014e+277" },
	{ 0x3ba243c23a4bf946u, "1.9338484736510343e-21" },
	{ 0xe0e89ed4be8aa57cu, "-6.760571831820435e+158" },
	{ 0xc25a10e4320db7c2u, "-447810160694.8712" },
	{ 0x48a92ddeecb60581u, "1.096708086247203e+42" },
	{ 0xbc4e3b63245eba48u, "-3.2777580061976103e-18" },
	{ 0x63269c44bfd0010du, "4.266544535033251e+169" },
	{ 0x407c9df37f25b7c4u, "457.87194742902307" },
	{ 0x18bf5a92d1e8eaebu, "1.7592718871710144e-189" },
	{ 0x42e52c409a5fa5f8u, "186238452825391.75" },
	{ 0x97f36db9c3ab5c5du, "-2.6614888577588133e-193" },
	{ 0x3d92110200e3bf26u, "4.107832142063792e-12" },
	{ 0x321e7d7651ae493au, "2.8273504239546024e-67" },
	{ 0xbd83bbc8aad0d985u, "-2.243442701140875e-12" },
	{ 0xf879ae0c4cd3f489u, "-2.1706460192577957e+272" },
	{ 0xc3b5f1db5399e5e9u, "-1581286096294504700" },
	{ 0x35dd3a374edfed57u, "3.124719219447276e-49" },
	{ 0x4324ca9b26fb0524u, "2926133628469906" },
	{ 0xb0af66fe916bad88u, "-3.4713055353749486e-74" },
	{ 0x3ed7fc97077f87e7u, "0.000005718870049494277" },
	{ 0xfd2432f0e84751aeu, "-6.450232859013475e+294" },
	{ 0x43ca83ef95721c15u, "3821268184157661700" },
	{ 0xaac6e0f72533b803u, "-1.2768626435118874e-102" },
	{ 0xc2f7c4a3fca61e3eu, "-418133316362723.9" },
	{ 0xfcf7e6777b008fa0u, "-9.540220713710247e+293" },
	{ 0x4268775cfb1e8eaeu, "840654379252.4587" },
	{ 0xf8396881df29b379u, "-1.342302984518995e+271" },
	{ 0xc014b7b3e2bf52dcu, "-5.17939714710948" },
	{ 0x82cc23e488ab6006u, "-3.4422430608518438e-295" },
	{ 0xc00b501e1c4e4661u, "-3.414119931353341" },
	{ 0x9cbcbb291ebef49au, "-2.9738198707429535e-170" },
	{ 0x3d3f6970eb8255fdu, "1.1159741316579894e-13" },
	{ 0x007df14aa5f38169u, "2.6649749914427602e-306" },
	{ 0xbda55147d4d4a73bu, "-9.694077702861396e-12" },
	{ 0xf629fc499ce866c3u, "-1.5981491435272409e+261" },
	{ 0x405ba3c874a9ae2bu, "110.55910984583231" },
	{ 0xa697e3a7a3f68ddau, "-9.03451366775114e-123" },
	{ 0x3d4665fc75bb77e2u, "1.5915008676071488e-13" },
};

/* A JSON text and what JavaScript makes of JSON.parse(text), its length. */
struct js_case {
	const char	*in;
	const char	*js;
	size_t		 len;
};

/* JSON texts and JSON.stringify(JSON.parse(text)). */
static const struct js_case stringified[] = {
	{ "{\"b\":1,\"a\":2}",
	    "{\"b\":1,\"a\":2}", 13 },
	{ "{\"b\":1,\"10\":2,\"2\":3,\"0\":4,\"1\":5,\"a\":6}",
	    "{\"0\":4,\"1\":5,\"2\":3,\"10\":2,\"b\":1,\"a\":6}", 38 },
	{ "{\"4294967295\":1,\"4294967294\":2,\"01\":3,\"-0\":4,\"0\":5"
	    ",\"1.0\":6,\" 1\":7,\"1 \":8,\"+1\":9,\"99999999999\":10,\"1"
	    "e3\":11,\"\":12}",
	    "{\"0\":5,\"4294967294\":2,\"4294967295\":1,\"01\":3,\"-0\":4"
	    ",\"1.0\":6,\" 1\":7,\"1 \":8,\"+1\":9,\"99999999999\":10,\"1"
	    "e3\":11,\"\":12}", 112 },
	{ "{\"x\":[1,{\"3\":\"a\",\"1\":\"b\"},[]],\"y\":{},\"z\":[[],["
	    "[]],{}]}",
	    "{\"x\":[1,{\"1\":\"b\",\"3\":\"a\"},[]],\"y\":{},\"z\":[[],["
	    "[]],{}]}", 54 },
	{ "{\"a\":1,\"b\":2,\"a\":3}",
	    "{\"a\":3,\"b\":2}", 13 },
	{ "{\"a\":1,\"b\":{\"c\":1,\"c\":[2]},\"a\":{\"d\":4}}",
	    "{\"a\":{\"d\":4},\"b\":{\"c\":[2]}}", 27 },
	{ "{\"5\":\"x\",\"a\":1,\"5\":\"y\"}",
	    "{\"5\":\"y\",\"a\":1}", 15 },
	{ "[1.0,-0,-0.0,1e21,1E-7,0.1,12345678901234567890,100,1.5e300,"
	    "-1e-7,0.000001,123e-20,9007199254740993]",
	    "[1,0,0,1e+21,1e-7,0.1,12345678901234567000,100,1.5e+300,-1e-"
	    "7,0.000001,1.23e-18,9007199254740992]", 97 },
	{ "[\"\\u0001\\u001f\\\"\\\\/\\b\\f\\n\\r\\t\\u007f\\u2028\\u20"
	    "29\\u00e9\\ud83d\\ude00 \xC3\xA9\xF0\x9F\x98\x80\",\"\\u0000"
	    "x\"]",
	    "[\"\\u0001\\u001f\\\"\\\\/\\b\\f\\n\\r\\t\x7F\xE2\x80\xA8\xE2"
	    "\x80\xA9\xC3\xA9\xF0\x9F\x98\x80 \xC3\xA9\xF0\x9F\x98\x80\","
	    "\"\\u0000x\"]", 61 },
	{ "{\"\\n\\\"key\\\"\":\"v\",\"\\u0001\":0,\"\xC3\xA9\":\"\\u00"
	    "0b\"}",
	    "{\"\\n\\\"key\\\"\":\"v\",\"\\u0001\":0,\"\xC3\xA9\":\"\\u00"
	    "0b\"}", 42 },
	{ "true",
	    "true", 4 },
	{ "false",
	    "false", 5 },
	{ "null",
	    "null", 4 },
	{ "[]",
	    "[]", 2 },
	{ "{}",
	    "{}", 2 },
	{ "\"plain\"",
	    "\"plain\"", 7 },
	{ "-0",
	    "0", 1 },
	{ "0.30000000000000004",
	    "0.30000000000000004", 19 },
	{ "[true,false,null]",
	    "[true,false,null]", 17 },
	{ "[[[[[[[[[[1]]]]]]]]]]",
	    "[[[[[[[[[[1]]]]]]]]]]", 21 },
	{ "{\"1\":{\"0\":{\"b\":1,\"a\":2}},\"0\":[{\"10\":1,\"9\":2}]}",
	    "{\"0\":[{\"9\":2,\"10\":1}],\"1\":{\"0\":{\"b\":1,\"a\":2}}}",
	    46 },
	{ "{\"4294967296\":1,\"4294967294\":2,\"42949672940\":3,\"2\":4"
	    "}",
	    "{\"2\":4,\"4294967294\":2,\"4294967296\":1,\"42949672940\":3"
	    "}", 53 },
};

/* JSON texts and String(JSON.parse(text)). */
static const struct js_case stringed[] = {
	{ "\"abc\"",
	    "abc", 3 },
	{ "1.0",
	    "1", 1 },
	{ "-0",
	    "0", 1 },
	{ "true",
	    "true", 4 },
	{ "false",
	    "false", 5 },
	{ "null",
	    "null", 4 },
	{ "[]",
	    "", 0 },
	{ "[null]",
	    "", 0 },
	{ "[null,null]",
	    ",", 1 },
	{ "[1,[2,[3,null]],\"a\"]",
	    "1,2,3,,a", 8 },
	{ "{}",
	    "[object Object]", 15 },
	{ "{\"a\":1}",
	    "[object Object]", 15 },
	{ "[{}, {\"a\":1}]",
	    "[object Object],[object Object]", 31 },
	{ "[true,false]",
	    "true,false", 10 },
	{ "[[]]",
	    "", 0 },
	{ "[[],[]]",
	    ",", 1 },
	{ "1e21",
	    "1e+21", 5 },
	{ "0.1",
	    "0.1", 3 },
	{ "[1e21,1e-7,-0]",
	    "1e+21,1e-7,0", 12 },
	{ "\"a\\u0000b\"",
	    "a\x00" "b", 3 },
	{ "[[\"a\",\"b\"],[\"c\"]]",
	    "a,b,c", 5 },
	{ "[null,\"\",null]",
	    ",,", 2 },
	{ "\"\"",
	    "", 0 },
	{ "[[null]]",
	    "", 0 },
	{ "123456789012345680000",
	    "123456789012345680000", 21 },
	{ "[{\"a\":[1,2]}]",
	    "[object Object]", 15 },
	{ "\"\\u2028<&>\"",
	    "\xE2\x80\xA8<&>", 6 },
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static double
from_bits(uint64_t u)
{
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

static void
test_numbers(void)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < NELEM(numbers); i++) {
		buf_reset(&b);
		jsonw_number(&b, from_bits(numbers[i].bits));
		unit_mem(b.data, b.len, numbers[i].js,
		    unit_fmt("number 0x%016llx is %s",
		    (unsigned long long)numbers[i].bits, numbers[i].js));
	}

	buf_reset(&b);
	jsonw_number(&b, NAN);
	unit_str(buf_cstr(&b), "NaN", "NaN is NaN");
	buf_reset(&b);
	jsonw_number(&b, INFINITY);
	buf_addc(&b, ' ');
	jsonw_number(&b, -INFINITY);
	unit_str(buf_cstr(&b), "Infinity -Infinity", "the infinities");
	buf_reset(&b);
	buf_adds(&b, "x=");
	jsonw_number(&b, 2.5);
	unit_str(buf_cstr(&b), "x=2.5", "a number is appended to the buffer");
	buf_free(&b);
}

static void
test_string(void)
{
	struct buf b = BUF_INIT;
	char in[1], want[16];
	unsigned c;

	for (c = 0; c < 0x20; c++) {
		const char *short_esc = NULL;

		switch (c) {
		case '\b': short_esc = "\"\\b\""; break;
		case '\f': short_esc = "\"\\f\""; break;
		case '\n': short_esc = "\"\\n\""; break;
		case '\r': short_esc = "\"\\r\""; break;
		case '\t': short_esc = "\"\\t\""; break;
		}
		if (short_esc != NULL)
			snprintf(want, sizeof(want), "%s", short_esc);
		else
			snprintf(want, sizeof(want), "\"\\u00%02x\"", c);
		in[0] = (char)c;
		buf_reset(&b);
		jsonw_string(&b, in, 1);
		unit_mem(b.data, b.len, want,
		    unit_fmt("string: control 0x%02x is %s", c, want));
	}
	buf_reset(&b);
	jsonw_string(&b, "\"\\/", 3);
	unit_str(buf_cstr(&b), "\"\\\"\\\\/\"",
	    "string: quote and backslash escaped, slash not");
	buf_reset(&b);
	jsonw_string(&b, "\x7F\xC3\xA9\xE2\x80\xA8\xE2\x80\xA9\xF0\x9F\x98\x80",
	    13);
	unit_str(buf_cstr(&b),
	    "\"\x7F\xC3\xA9\xE2\x80\xA8\xE2\x80\xA9\xF0\x9F\x98\x80\"",
	    "string: DEL, U+2028, U+2029 and non-ASCII are not escaped");
	buf_reset(&b);
	jsonw_string(&b, "a\0b", 3);
	unit_str(buf_cstr(&b), "\"a\\u0000b\"", "string: an embedded NUL");
	buf_reset(&b);
	jsonw_string(&b, "", 0);
	unit_str(buf_cstr(&b), "\"\"", "string: the empty string");
	buf_reset(&b);
	jsonw_string(&b, "abc\n", 2);
	unit_str(buf_cstr(&b), "\"ab\"", "string: only n bytes");
	buf_reset(&b);
	jsonw_string(&b, "\x1b[1mbold\x1b[0m", 12);
	unit_str(buf_cstr(&b), "\"\\u001b[1mbold\\u001b[0m\"",
	    "string: ANSI escapes in lowercase hex");
	buf_reset(&b);
	jsonw_string(&b, "\xff\xc0\x80", 3);
	unit_str(buf_cstr(&b), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"",
	    "string: each byte of no character is U+FFFD");
	buf_reset(&b);
	jsonw_string(&b, "a\xED\xA0\x80z\xC3", 6);
	unit_str(buf_cstr(&b), "\"a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDz"
	    "\xEF\xBF\xBD\"", "string: an encoded surrogate and a cut "
	    "character are U+FFFD");
	/* every position of a bad byte and of a 4-byte character in a long
	 * text, so that the 16- and 8-byte steps and the 4096-byte blocks
	 * all meet them */
	{
		char text[9000], wanted[9100];
		size_t at, k, w;
		int bad = 0, good = 0, cases = 0;

		for (at = 0; at < sizeof(text) - 4; at += 1 + at / 64) {
			memset(text, 'x', sizeof(text));
			text[at] = (char)0xFF;
			buf_reset(&b);
			jsonw_escape(&b, text, sizeof(text));
			w = 0;
			for (k = 0; k < sizeof(text); k++)
				if (k == at) {
					memcpy(wanted + w, "\xEF\xBF\xBD", 3);
					w += 3;
				} else
					wanted[w++] = 'x';
			cases++;
			bad += b.len == w && memcmp(b.data, wanted, w) == 0;
			memset(text, 'x', sizeof(text));
			memcpy(text + at, "\xF0\x9F\x98\x80", 4);
			buf_reset(&b);
			jsonw_escape(&b, text, sizeof(text));
			good += b.len == sizeof(text) &&
			    memcmp(b.data, text, sizeof(text)) == 0;
		}
		unit_long(bad, cases, "string: a bad byte anywhere in a long "
		    "text is U+FFFD");
		unit_long(good, cases, "string: a 4-byte character anywhere "
		    "in a long text is kept");
	}
	buf_free(&b);
}

/*
 * Writes the value of each case's text with fn, between "<" and ">" so
 * that fn is seen to append and to stay within its own bytes, and
 * compares what it wrote with what JavaScript wrote: name(text).
 */
static void
js_cases(const struct js_case *c, size_t n,
    void (*fn)(struct buf *, const json_t *), const char *name)
{
	struct buf b = BUF_INIT;
	json_error_t je;
	const char *what;
	json_t *v;
	size_t i;

	for (i = 0; i < n; i++) {
		/* the tools refuse a repeated key; jansson alone keeps the
		 * last value, as JSON.parse does, which some cases check */
		v = json_loadb(c[i].in, strlen(c[i].in),
		    JSONX_FLAGS & ~JSON_REJECT_DUPLICATES, &je);
		what = unit_fmt("%s of %.150s", name, c[i].in);
		if (v == NULL) {
			unit_ok(0, what);
			printf("#   jansson: %s\n", je.text);
			continue;
		}
		buf_reset(&b);
		buf_adds(&b, "<");
		fn(&b, v);
		buf_adds(&b, ">");
		unit_bytes(b.data + 1, b.len - 2, c[i].js, c[i].len, what);
		json_decref(v);
	}
	buf_free(&b);
}

static void
test_stringify(void)
{
	js_cases(stringified, NELEM(stringified), jsonw_stringify,
	    "JSON.stringify");
}

/* Objects and numbers made through jansson's API rather than parsed. */
static void
test_stringify_built(void)
{
	struct buf b = BUF_INIT;
	json_t *o = json_object(), *a = json_array();
	char key[16];
	int i;

	for (i = 40; i >= 0; i -= 3) {
		snprintf(key, sizeof(key), "%d", i);
		json_object_set_new(o, key, json_integer(i));
	}
	json_object_set_new(o, "k", json_null());
	jsonw_stringify(&b, o);
	unit_str(buf_cstr(&b), "{\"1\":1,\"4\":4,\"7\":7,\"10\":10,\"13\":13,"
	    "\"16\":16,\"19\":19,\"22\":22,\"25\":25,\"28\":28,\"31\":31,"
	    "\"34\":34,\"37\":37,\"40\":40,\"k\":null}",
	    "index keys inserted in reverse come out ascending");
	json_array_append_new(a, json_integer(9007199254740993LL));
	json_array_append_new(a, json_integer(-3));
	json_array_append_new(a, json_real(-0.0));
	json_array_append_new(a, json_real(1e-7));
	buf_reset(&b);
	jsonw_stringify(&b, a);
	unit_str(buf_cstr(&b), "[9007199254740992,-3,0,1e-7]",
	    "jansson integers are written as doubles");
	buf_reset(&b);
	jsonw_tostring(&b, a);
	unit_str(buf_cstr(&b), "9007199254740992,-3,0,1e-7",
	    "String() of jansson integers");
	buf_reset(&b);
	jsonw_exact(&b, a);
	unit_str(buf_cstr(&b), "[9007199254740993,-3,0,1e-7]",
	    "jsonw_exact: integers exactly, reals as JavaScript writes them");
	json_array_append(a, o);
	buf_reset(&b);
	jsonw_exact(&b, a);
	unit_str(buf_cstr(&b), "[9007199254740993,-3,0,1e-7,{\"40\":40,"
	    "\"37\":37,\"34\":34,\"31\":31,\"28\":28,\"25\":25,\"22\":22,"
	    "\"19\":19,\"16\":16,\"13\":13,\"10\":10,\"7\":7,\"4\":4,"
	    "\"1\":1,\"k\":null}]", "jsonw_exact: members in their order");
	json_decref(o);
	json_decref(a);
	buf_free(&b);
}

static void
test_tostring(void)
{
	js_cases(stringed, NELEM(stringed), jsonw_tostring, "String()");
}

int
main(void)
{
	test_numbers();
	test_string();
	test_stringify();
	test_stringify_built();
	test_tostring();
	return unit_done();
}
